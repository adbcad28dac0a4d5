// Test helper: a purely relative floating-point comparison.
#pragma once

#include <doctest/doctest.h>

namespace zs::test {

/// zs::test::approx(v) compares within epsilon x (scale + max(|a|, |b|)) with a default scale of 1: an
/// absolute tolerance of epsilon that makes a check of a time in milliseconds pass for almost any value.
/// This keeps only the relative part (the tiny scale lets exact zeros compare equal).
inline doctest::Approx approx(double value) {
  return doctest::Approx(value).scale(1e-300);
}

}  // namespace zs::test
