// Test helper: the message of the InputError a call raises, or "(no error)".
#pragma once

#include <functional>
#include <string>

#include "core/input_error.hpp"

namespace zs::test {

inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace zs::test
