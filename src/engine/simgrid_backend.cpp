// SimGrid 3.32 behind the backend interface (the only file of zettasim that includes SimGrid).
#include "engine/simgrid_backend.hpp"

#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <xbt/log.h>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

namespace zs::engine {
namespace sg4 = simgrid::s4u;

namespace {

// SimGrid 3.32 keeps its clock in a process-wide static that no public call resets, so a second
// engine in one process would start at the first one's end time and round differently. We reset
// it between engines through its exported symbol; if a SimGrid version drops the symbol the build
// fails to link rather than silently losing determinism.
extern "C++" double simgrid_engine_now __asm__("_ZN7simgrid6kernel10EngineImpl4now_E");

void reset_simgrid_clock() {
  simgrid_engine_now = 0.0;
  if (sg4::Engine::get_clock() != 0.0) throw std::logic_error("could not reset SimGrid's clock");
}

/// Host speed in work units per second: a compute activity of d seconds is d * 1e9 units, so
/// SimGrid's work-amount precision (1e-5 units) is 10 fs.
constexpr double kHostSpeed = 1e9;

void configure_simgrid_once() {
  // SimGrid's configuration is process-wide and its network model cannot be set twice.
  xbt_log_control_set("root.thresh:warning");
  if (simgrid::config::get_value<std::string>("network/model") != "CM02")
    sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
}

}  // namespace

struct SimgridBackend::Impl {
  struct Pending {
    Impl* owner = nullptr;
    Token token = 0;
    sg4::ActivityPtr activity;
  };

  sg4::Engine engine{"zettasim"};
  std::vector<sg4::Host*> hosts;  ///< by node id; nullptr for switches
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

SimgridBackend::SimgridBackend(const topology::Machine& machine) {
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
  impl_ = std::make_unique<Impl>();
  configure_simgrid_once();  // after the engine exists (it declares the keys), before the platform
  impl_->start_clock = sg4::Engine::get_clock();

  const auto& topo = machine.topology;
  auto* zone = sg4::create_dijkstra_zone("machine", true);
  std::vector<simgrid::kernel::routing::NetPoint*> points(topo.nodes().size());
  impl_->hosts.assign(topo.nodes().size(), nullptr);
  for (topology::NodeId n = 0; n < topo.nodes().size(); ++n) {
    std::string name = "n" + std::to_string(n);
    if (topo.node(n).kind != topology::NodeKind::kSwitch) {  // units and memory pools are endpoints
      impl_->hosts[n] = zone->create_host(name, kHostSpeed);
      points[n] = impl_->hosts[n]->get_netpoint();
    } else {
      points[n] = zone->create_router(name);
    }
  }
  for (topology::LinkId l = 0; l < topo.links().size(); ++l) {
    const auto& link = topo.link(l);
    const auto& model = machine.link_model(l);
    auto make = [&](const char* dir) {
      return zone->create_link("l" + std::to_string(l) + dir, machine.link_bandwidth(l).value())
          ->set_latency(model.latency().value())
          ->seal();
    };
    auto* forward = make("f");
    auto* backward = make("b");
    zone->add_route(points[link.a], points[link.b], nullptr, nullptr, {sg4::LinkInRoute(forward)}, false);
    zone->add_route(points[link.b], points[link.a], nullptr, nullptr, {sg4::LinkInRoute(backward)}, false);
  }
  zone->seal();
}

SimgridBackend::~SimgridBackend() = default;

core::Seconds SimgridBackend::now() const {
  return core::Seconds(sg4::Engine::get_clock() - impl_->start_clock);
}

void SimgridBackend::start_compute(topology::NodeId unit, core::Seconds duration, Token token) {
  auto exec = sg4::Exec::init();
  exec->set_host(impl_->hosts.at(unit));
  exec->set_flops_amount(duration.value() * kHostSpeed);
  impl_->start(exec, token);
}

void SimgridBackend::start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes,
                                    Token token) {
  if (src == dst) {
    start_compute(src, core::Seconds(0.0), token);
    return;
  }
  auto comm = sg4::Comm::sendto_init(impl_->hosts.at(src), impl_->hosts.at(dst));
  comm->set_payload_size(static_cast<uint64_t>(std::llround(bytes.value())));
  impl_->start(comm, token);
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
