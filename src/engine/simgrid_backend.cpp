// SimGrid 3.32 behind the backend interface (the only file of zettasim that includes SimGrid).
#include "engine/simgrid_backend.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <xbt/log.h>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include "engine/engine_value_error.hpp"
#include "topology/routing.hpp"

// SimGrid 3.32 keeps its clock in a process-wide static that no public call resets, so a second
// engine in one process would start at the first one's end time and round differently. We reset
// it between engines through its exported symbol; if a SimGrid version drops the symbol the build
// fails to link rather than silently losing determinism. (Declared outside any unnamed namespace: it
// is defined in SimGrid.)
extern "C++" double zs_simgrid_engine_now __asm__("_ZN7simgrid6kernel10EngineImpl4now_E");

namespace zs::engine {
namespace sg4 = simgrid::s4u;

namespace {

void reset_simgrid_clock() {
  zs_simgrid_engine_now = 0.0;
  if (sg4::Engine::get_clock() != 0.0) throw std::logic_error("could not reset SimGrid's clock");
}

/// Host speed in work units per second: a compute activity of d seconds is d * 1e9 units, so
/// SimGrid's work-amount precision (1e-5 units) is 10 fs.
constexpr double kHostSpeed = 1e9;
/// The longest activity handed to SimGrid, s (10^18 s, the longest time a scenario may state), and the
/// largest payload, B (2^62: SimGrid takes it as a 64-bit integer).
constexpr double kMaxSeconds = 1e18;
constexpr double kMaxPayload = 4611686018427387904.0;

void configure_simgrid_once() {
  // SimGrid's configuration is process-wide and its network model cannot be set twice.
  xbt_log_control_set("root.thresh:warning");
  if (simgrid::config::get_value<std::string>("network/model") != "CM02")
    sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
}

/// Enough cores on the timer host that concurrent timers never share it.
constexpr int kTimerCores = 1 << 30;

/// A SimGrid zone that routes by asking its owner: the caller's explicit route for the transfer
/// being started, or the fewest-hop route over the links enabled now. SimGrid's own routed zones
/// either store a table per pair (Full, Floyd: quadratic) or cache shortest-path trees that ignore
/// link state (Dijkstra); this one stores nothing and follows optical circuits as they change.
class ExplicitRouteZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  using Resolver =
      std::function<void(topology::NodeId src, simgrid::kernel::routing::Route* into, double* latency)>;
  ExplicitRouteZone(const std::string& name, Resolver resolver)
      : NetZoneImpl(name), resolver_(std::move(resolver)) {}

  void get_local_route(const simgrid::kernel::routing::NetPoint* src,
                       const simgrid::kernel::routing::NetPoint* dst, simgrid::kernel::routing::Route* into,
                       double* latency) override {
    (void)dst;  // the route being started already ends there (checked before the start)
    resolver_(static_cast<topology::NodeId>(src->id()), into, latency);
  }

 private:
  Resolver resolver_;
};

}  // namespace

struct SimgridBackend::Impl {
  struct Pending {
    Impl* owner = nullptr;
    Token token = 0;
    sg4::ActivityPtr activity;
  };

  /// After prepare_engine(): the engine exists here, so SimGrid's configuration keys do too.
  explicit Impl(const topology::Machine& m) : machine(m), router(m) {
    configure_simgrid_once();  // before the platform
    start_clock = sg4::Engine::get_clock();
  }

  const topology::Machine& machine;
  topology::Router router;
  sg4::Engine engine{"zettasim"};
  std::vector<sg4::Host*> hosts;  ///< by node id; nullptr for switches that do not reduce in the network
  sg4::Host* timer_host = nullptr;
  /// One-way SimGrid links per topology link: [0] carries a -> b, [1] carries b -> a.
  std::vector<std::array<simgrid::kernel::resource::StandardLinkImpl*, 2>> links;
  const std::vector<topology::LinkId>* next_route = nullptr;  ///< set while a transfer starts
  double next_step_latency = 0;  ///< the least latency of the transfer being started, s
  double start_clock = 0;
  std::unordered_map<Token, Pending> pending;
  std::vector<sg4::ActivityPtr> finished;  ///< kept alive until SimGrid's completion callback returns
  const std::function<void(Token)>* on_done = nullptr;
  std::exception_ptr failure;

  void start(sg4::ActivityPtr activity, Token token) {
    if (failure) return;
    auto [it, inserted] = pending.try_emplace(token);
    if (!inserted) throw std::logic_error("backend token reused while its activity is live");
    it->second = {this, token, activity};
    activity->set_data(&it->second);
    activity->start();
  }

  /// Throws unless `route` is a path of enabled links from src to dst.
  void check_route(topology::NodeId src, topology::NodeId dst,
                   const std::vector<topology::LinkId>& route) const {
    topology::NodeId at = src;
    for (topology::LinkId l : route) {
      const auto& link = machine.topology.link(l);
      if (!router.link_enabled(l)) throw std::logic_error("transfer routed over a disabled link");
      if (link.a != at && link.b != at) throw std::logic_error("route is not a path from its source");
      at = link.a == at ? link.b : link.a;
    }
    if (at != dst) throw std::logic_error("route does not end at its destination");
  }

  /// Fills a SimGrid route with the one-way links of the checked route being started.
  void resolve(topology::NodeId src, simgrid::kernel::routing::Route* into, double* latency) const {
    if (next_route == nullptr) throw std::logic_error("SimGrid asked for a route outside a transfer start");
    topology::NodeId at = src;
    for (topology::LinkId l : *next_route) {
      const auto& link = machine.topology.link(l);
      int direction = link.a == at ? 0 : 1;
      into->link_list_.push_back(links[l][direction]);
      at = direction == 0 ? link.b : link.a;
    }
    if (latency != nullptr)
      *latency += std::max(topology::route_latency(machine, *next_route).value(), next_step_latency);
  }

  /// The platform's root zone (the engine owns and deletes it), routing through resolve(); no hosts yet.
  sg4::NetZone* open_zone() {
    auto* zone =
        new ExplicitRouteZone("machine", [this](topology::NodeId src, simgrid::kernel::routing::Route* into,
                                                double* latency) { resolve(src, into, latency); });
    hosts.assign(machine.topology.nodes().size(), nullptr);
    return zone->get_iface();
  }

  /// Adds the timer host, seals the platform and switches off the links not active at the start.
  void close_zone(sg4::NetZone* zone) {
    timer_host = zone->create_host("timer", kHostSpeed)->set_core_count(kTimerCores);
    zone->seal();
    for (topology::LinkId l = 0; l < machine.topology.links().size(); ++l)
      if (!machine.topology.active_at_start(l)) router.set_link_enabled(l, false);
  }

  void complete(Pending* p) {
    finished.clear();  // activities of earlier callbacks are no longer used by SimGrid
    finished.push_back(p->activity);
    Token token = p->token;
    pending.erase(token);
    if (failure || on_done == nullptr) return;
    try {
      (*on_done)(token);
    } catch (...) {
      failure = std::current_exception();
    }
  }
};

void SimgridBackend::prepare_engine() {
  static std::once_flag connected;
  std::call_once(connected, [] {
    // SimGrid signals are process-wide and cannot be disconnected: connect one trampoline that
    // finds the owning backend through the activity's data.
    sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
      auto* p = a.get_data<Impl::Pending>();
      if (p != nullptr) p->owner->complete(p);
    });
  });
  reset_simgrid_clock();
}

namespace {
/// A host's speeds: alone, and for a compute unit whose model slows compute beside communication, the
/// slower speed it runs at then (SimGrid's second power state; switching it re-rates running compute).
std::vector<double> host_speeds(const topology::Machine& machine, topology::NodeId n) {
  if (machine.topology.node(n).kind != topology::NodeKind::kUnit) return {kHostSpeed};
  const double slowdown = machine.unit_model(n).overlap_slowdown();
  if (slowdown <= 0) return {kHostSpeed};
  return {kHostSpeed, kHostSpeed / (1.0 + slowdown)};
}
}  // namespace

SimgridBackend::SimgridBackend(const topology::Machine& machine) {
  prepare_engine();
  impl_ = std::make_unique<Impl>(machine);
  const auto& topo = machine.topology;
  auto* zone = impl_->open_zone();
  for (topology::NodeId n = 0; n < topo.nodes().size(); ++n) {
    std::string name = "n" + std::to_string(n);
    simgrid::kernel::routing::NetPoint* point = nullptr;
    const auto* sw = machine.switch_model(n);
    // Units, memory pools and switches that reduce in the network are endpoints of transfers.
    if (topo.node(n).kind != topology::NodeKind::kSwitch || (sw != nullptr && sw->in_network_reduction())) {
      impl_->hosts[n] = zone->create_host(name, host_speeds(machine, n));
      point = impl_->hosts[n]->get_netpoint();
    } else {
      point = zone->create_router(name);
    }
    if (point->id() != n) throw std::logic_error("SimGrid numbered the platform's points out of order");
  }
  impl_->links.resize(topo.links().size());
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    double latency = machine.link_model(l).latency().value();
    auto make = [&](const char* dir) {
      return zone->create_link("l" + std::to_string(l) + dir, machine.link_bandwidth(l).value())
          ->set_latency(latency)
          ->seal()
          ->get_impl();
    };
    impl_->links[l] = {make("f"), make("b")};
  }
  impl_->close_zone(zone);
}

SimgridBackend::SimgridBackend(const topology::Machine& machine,
                               const std::vector<topology::NodeId>& compute_units) {
  prepare_engine();
  impl_ = std::make_unique<Impl>(machine);
  auto* zone = impl_->open_zone();
  for (topology::NodeId n : compute_units)
    if (impl_->hosts.at(n) == nullptr)
      impl_->hosts[n] = zone->create_host("n" + std::to_string(n), host_speeds(machine, n));
  impl_->close_zone(zone);
}

SimgridBackend::~SimgridBackend() = default;

core::Seconds SimgridBackend::now() const {
  return core::Seconds(sg4::Engine::get_clock() - impl_->start_clock);
}

void SimgridBackend::start_compute(topology::NodeId unit, core::Seconds duration, Token token) {
  auto* host = impl_->hosts.at(unit);
  if (host == nullptr) throw std::logic_error("compute started on a node without a host");
  auto exec = sg4::Exec::init();
  exec->set_host(host);
  exec->set_flops_amount(checked_engine_value(duration.value(), "a compute duration (s)", kMaxSeconds) * kHostSpeed);
  impl_->start(exec, token);
}

void SimgridBackend::set_communicating(topology::NodeId unit, bool communicating) {
  auto* host = impl_->hosts.at(unit);
  if (host != nullptr && host->get_pstate_count() > 1) host->set_pstate(communicating ? 1 : 0);
}

void SimgridBackend::start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes,
                                    Token token) {
  if (src == dst) {
    start_compute(src, core::Seconds(0.0), token);
    return;
  }
  start_transfer(src, dst, bytes, token, impl_->router.route(src, dst));
}

void SimgridBackend::start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes,
                                    Token token, const std::vector<topology::LinkId>& route,
                                    double step_latency) {
  if (src == dst) {
    start_compute(src, core::Seconds(0.0), token);
    return;
  }
  if (impl_->links.empty() && !route.empty())
    throw std::logic_error("transfer started on a backend built without a network");
  impl_->check_route(src, dst, route);
  auto comm = sg4::Comm::sendto_init(impl_->hosts.at(src), impl_->hosts.at(dst));
  comm->set_payload_size(static_cast<uint64_t>(
      std::llround(checked_engine_value(bytes.value(), "a transfer's payload (B)", kMaxPayload))));
  impl_->next_route = &route;  // SimGrid resolves the route synchronously inside start()
  impl_->next_step_latency =
      step_latency >= 0 ? step_latency : topology::route_step_latency(impl_->machine, route).value();
  try {
    impl_->start(comm, token);
  } catch (...) {
    impl_->next_route = nullptr;
    throw;
  }
  impl_->next_route = nullptr;
}

void SimgridBackend::start_timer(core::Seconds delay, Token token) {
  auto exec = sg4::Exec::init();
  exec->set_host(impl_->timer_host);
  exec->set_flops_amount(checked_engine_value(delay.value(), "a timed delay (s)", kMaxSeconds) * kHostSpeed);
  impl_->start(exec, token);
}

topology::Router& SimgridBackend::router() {
  return impl_->router;
}

void SimgridBackend::run(const std::function<void(Token)>& on_done) {
  impl_->on_done = &on_done;
  impl_->engine.run();
  impl_->on_done = nullptr;
  impl_->finished.clear();
  if (impl_->failure) std::rethrow_exception(impl_->failure);
  if (!impl_->pending.empty()) throw std::logic_error("simulation ended with activities still pending");
}

}  // namespace zs::engine
