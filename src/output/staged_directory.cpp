// Atomic output folders.
#include "output/staged_directory.hpp"

#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace zs::output {
namespace fs = std::filesystem;

StagedDirectory::StagedDirectory(fs::path final_path) : final_(std::move(final_path)) {
  if (final_.filename().empty()) final_ = final_.parent_path();
  fs::path parent = final_.parent_path().empty() ? fs::path(".") : final_.parent_path();
  fs::create_directories(parent);
  stage_ = parent / ("." + final_.filename().string() + ".staging-" + std::to_string(::getpid()));
  fs::remove_all(stage_);
  fs::create_directory(stage_);
}

StagedDirectory::~StagedDirectory() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

void StagedDirectory::write(const std::string& name, const std::string& content) {
  std::ofstream out(stage_ / name, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + (stage_ / name).string());
}

void StagedDirectory::commit() {
  fs::path old;
  if (fs::exists(final_)) {
    old = final_.parent_path() / ("." + final_.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::remove_all(old);
    fs::rename(final_, old);
  }
  fs::rename(stage_, final_);
  committed_ = true;
  if (!old.empty()) fs::remove_all(old);
}

}  // namespace zs::output
