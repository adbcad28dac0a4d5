// Checks that a file is a whole ELF shared library before dlopen maps it: a truncated one faults (SIGBUS)
// when the loader touches a segment past the end of the file.
#pragma once

#include <optional>
#include <string>

namespace zs::plugin {

/// What is wrong with `file` as a 64-bit ELF shared object of this machine's byte order, or nothing: too
/// short for its header, not ELF, not a shared object, or a program header table, section header table
/// or loadable segment that runs past the end of the file (a truncated or partly written library).
std::optional<std::string> shared_library_problem(const std::string& file);

}  // namespace zs::plugin
