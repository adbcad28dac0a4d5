// Test helper: a goodput configuration for by-hand arithmetic of scripted failures.
#pragma once

#include <memory>
#include <utility>

#include "reliability/goodput_simulator.hpp"

namespace zs::test {

/// 1-second iterations of 1 token, a 100,000 s horizon, detection 60 s, restart 600 s, repair 10,000 s, on
/// `components`; no checkpoint unless the caller's interval gives one.
inline reliability::GoodputConfig scripted_job(std::shared_ptr<const reliability::JobComponents> components) {
  reliability::GoodputConfig c;
  c.iteration = zs::core::Seconds(1);
  c.tokens_per_iteration = 1;
  c.units = components->ranks();
  c.horizon = zs::core::Seconds(100000);
  c.detection = zs::core::Seconds(60);
  c.restart = zs::core::Seconds(600);
  c.repair = zs::core::Seconds(10000);
  c.job = std::move(components);
  return c;
}

}  // namespace zs::test
