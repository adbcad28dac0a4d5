// The one narrow interface to SimGrid: build a platform from a machine, start activities, get completions.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "core/units.hpp"
#include "topology/machine.hpp"
#include "topology/router.hpp"

namespace zs::engine {

/// Owns a SimGrid engine whose platform mirrors the machine's topology: one host per unit, per memory
/// pool and per switch that reduces in the network (in-network collectives send to it), one router per
/// other switch, two one-way links per full-duplex link. Routes are explicit:
/// SimGrid asks our own zone, which answers with the route the caller chose or, by default, the
/// fewest-hop route of router() over the links enabled at that moment (so optical circuits can change
/// during a run, and no SimGrid shortest-path table is ever built). Network model CM02 (max-min
/// sharing, no TCP correction factors, no cross-traffic), so an uncontended transfer of S bytes takes
/// exactly route latency + S / narrowest bandwidth.
/// Only one backend may exist at a time in a process (SimGrid keeps one engine per process).
class SimgridBackend {
 public:
  using Token = uint64_t;  ///< the caller's name for an activity, returned on completion

  /// A platform of the whole machine: a host per unit, pool and reducing switch, a link per direction.
  explicit SimgridBackend(const topology::Machine& machine);
  /// Hosts for `compute_units` alone and no network: for collapsed fidelity, which costs communication
  /// itself and only runs its representatives' compute and timers on SimGrid. Transfers are then an
  /// error (std::logic_error); the router is still the machine's.
  SimgridBackend(const topology::Machine& machine, const std::vector<topology::NodeId>& compute_units);
  ~SimgridBackend();
  SimgridBackend(const SimgridBackend&) = delete;
  SimgridBackend& operator=(const SimgridBackend&) = delete;

  /// Simulated time since this backend was created, s.
  core::Seconds now() const;
  /// Occupies the unit for `duration` if it runs alone; concurrent work on one unit shares it.
  void start_compute(topology::NodeId unit, core::Seconds duration, Token token);
  /// Whether communication kernels run on `unit` now: while they do, its compute runs at 1 / (1 +
  /// overlap_slowdown) of its speed (its unit model's), compute already running included.
  void set_communicating(topology::NodeId unit, bool communicating);
  /// Moves `bytes` (rounded to whole bytes) from one endpoint (unit, pool, reducing switch) to another
  /// over the route.
  /// A transfer from a unit to itself completes at once.
  void start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes, Token token);
  /// The same over a given route: its links in order from src to dst (each must be enabled).
  /// `step_latency` (s) is the least latency the transfer pays; negative: its route's step latency
  /// (topology::route_step_latency).
  void start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes, Token token,
                      const std::vector<topology::LinkId>& route, double step_latency = -1);
  /// Completes after `delay` of simulated time and loads nothing; any number may run at once.
  void start_timer(core::Seconds delay, Token token);
  /// The router the default transfers use; switch links on and off through it.
  topology::Router& router();
  /// Runs until no activity is left, calling on_done(token) at each completion; on_done may start
  /// more activities. An exception thrown by on_done stops the run and is rethrown here.
  void run(const std::function<void(Token)>& on_done);

 private:
  /// Registers the completion trampoline once per process and resets SimGrid's clock.
  static void prepare_engine();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zs::engine
