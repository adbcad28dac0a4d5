// Fuzz target: Chakra execution traces of one to four ranks, with or without a communicator-group file.
// The input is the rank files joined by kRankSeparator; its first byte picks how many ranks the import
// expects (a missing one is refused too). A segment after the last rank's is the group file.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "chakra/chakra_import.hpp"
#include "core/file_source.hpp"
#include "fuzz_contract.hpp"

namespace {
constexpr std::string_view kRankSeparator = "\n--zettasim-fuzz-rank--\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  if (size == 0) return 0;
  const unsigned ranks = 1 + data[0] % 4;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::map<std::string, std::string> files;
  size_t begin = 0;
  for (unsigned rank = 0; rank < ranks && begin <= rest.size(); ++rank) {
    const size_t end = std::min(rest.find(kRankSeparator, begin), rest.size());
    files["fuzz." + std::to_string(rank) + ".et"] = std::string(rest.substr(begin, end - begin));
    begin = end + kRankSeparator.size();
  }
  std::string groups;
  if (begin <= rest.size()) {
    files["fuzz.json"] = std::string(rest.substr(begin));
    groups = "fuzz.json";
  }
  const core::BundledFileSource source(std::move(files));
  fuzz::check_contract([&] { chakra::import_chakra("fuzz", source, groups); });
  return 0;
}
