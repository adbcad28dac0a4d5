// Test helper: a trace of one collective over every rank.
#pragma once

#include <string>

#include "workload/trace.hpp"

namespace zs::test {

/// One collective of `bytes` per rank over all n ranks of a one-axis mesh named `axis`.
inline workload::Trace one_collective(workload::CollectiveKind kind, uint32_t n, double bytes,
                                      const std::string& axis = "dp") {
  workload::Trace t;
  t.name = "collective";
  t.mesh = workload::Mesh({{axis, n}});
  t.streams = {"comm"};
  t.roles = {
      {"rank", {{"sync", "gradient-sync", 0, {}, workload::CollectiveOp{kind, axis, core::Bytes(bytes)}}}}};
  return t;
}

}  // namespace zs::test
