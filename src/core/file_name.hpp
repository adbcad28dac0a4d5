// Names that become a file or folder name: one safe path component, or a reason why not.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zs::core {

/// Longest name accepted where a name becomes part of a file or folder name (bytes).
inline constexpr size_t kMaxFileNameLength = 128;

/// What a safe name is, for error messages.
inline constexpr const char* kFileNameRule =
    "1 to 128 characters of A-Z a-z 0-9 . _ -, not starting with '.' or '-' (it names a file or folder)";

/// Why `name` is not one safe path component (POSIX's portable file name characters, no leading '.' or
/// '-', so no "..", no absolute path, no hidden or option-like name); nullopt when it is safe.
std::optional<std::string> file_name_problem(std::string_view name);

/// `text` made safe to echo inside one line of an error message: control characters, quotes and
/// backslashes escaped, bytes outside ASCII written as \xHH, and cut after `max_bytes` with "...".
std::string quoted_for_message(std::string_view text, size_t max_bytes = 80);

}  // namespace zs::core
