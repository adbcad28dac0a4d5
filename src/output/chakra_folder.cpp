// Chakra export folder.
#include "output/chakra_folder.hpp"

#include <stdexcept>

#include "chakra/chakra_export.hpp"
#include "core/input_error.hpp"

namespace zs::output {

uint64_t write_chakra_folder(const workload::Trace& trace, const std::filesystem::path& dir,
                             core::Replace replace, const chakra::ComputeTime& compute_time) {
  try {
    core::StagedDirectory stage(dir, replace);
    const uint64_t files = chakra::export_chakra(
        trace, trace.name,
        [&](const std::string& name, const std::string& bytes) { stage.write(name, bytes); }, compute_time);
    stage.commit();
    return files;
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const core::InputError*>(&e) != nullptr) throw;
    throw core::InputError(dir.string(), "", e.what());
  }
}

}  // namespace zs::output
