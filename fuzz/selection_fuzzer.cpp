// Fuzz target: a rank selection as --timeline-ranks takes it ("0-7,12", "pp=0..3,tp=0") on a fixed mesh;
// refused with one line naming the option, or a selection whose ranks are all in the mesh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_contract.hpp"
#include "workload/rank_selection.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  const std::string text(reinterpret_cast<const char*>(data), size);
  static const workload::Mesh mesh({{"pp", 4}, {"dp", 8}, {"ep", 2}, {"tp", 2}});
  fuzz::check_contract([&] {
    const auto selection = workload::RankSelection::parse(text, mesh, "--timeline-ranks");
    uint64_t chosen = 0;
    for (uint64_t r = 0; r < mesh.size(); ++r) chosen += selection.contains(r);
    if (chosen == 0 && !text.empty()) fuzz::finding("an accepted selection of no rank: " + text);
    if (selection.selects_every_rank() && chosen != mesh.size())
      fuzz::finding("every rank, but not all chosen");
  });
  return 0;
}
