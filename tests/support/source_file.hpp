// Test helper: a file of the source tree (scenarios, models, ...), by its path from the repository root.
#pragma once

#include <string>

namespace zs::test {

inline std::string source_file(const std::string& relative) {
  return std::string(ZS_SOURCE_DIR) + "/" + relative;
}

}  // namespace zs::test
