// Training under failures: the optimum checkpoint interval against Young and Daly, failure counts against
// the rate table, spares, silent corruption, determinism.
#include <doctest/doctest.h>

#include <cmath>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "reliability/goodput_simulator.hpp"
#include "support/approx.hpp"

using namespace zs;

namespace {

/// One job-level failure process with mean time between failures `mtbf` (s).
reliability::FailureRates job_failures(double mtbf, const std::string& recovery = "restart",
                                       const std::string& per = "job", uint64_t observed_units = 1) {
  nlohmann::json j = {
      {"kind", "failure-rates"},
      {"name", "test"},
      {"source", "test value"},
      {"observed",
       {{"units", observed_units}, {"units_per_host", 8}, {"duration", std::to_string(mtbf) + "s"}}},
      {"components", {{{"name", "node"}, {"per", per}, {"count", 1}, {"recovery", recovery}}}}};
  core::JsonObject o(j, "test-rates.json", "");
  return reliability::FailureRates::from_json(o);
}

reliability::FailureRates shipped_rates() {
  core::DiskFileSource files;
  const std::string path = std::string(ZS_SOURCE_DIR) + "/models/reliability/llama3-405b-54d.json";
  auto doc = files.read_json(path);
  core::JsonObject o(doc, path, "");
  return reliability::FailureRates::from_json(o);
}

/// The interval maximizing simulated ETTR: intervals on a log grid around `guess` share their failure
/// times (one seed), and a parabola fitted to ETTR over log(interval) gives the optimum.
double best_interval(const reliability::FailureRates& rates, const reliability::GoodputConfig& cfg,
                     double guess) {
  std::vector<double> xs, ys;
  for (int i = -8; i <= 8; ++i) {
    const double x = 0.08 * i;
    xs.push_back(x);
    ys.push_back(reliability::simulate_goodput_once(rates, cfg, guess * std::exp(x), 7, false).useful /
                 cfg.horizon.value());
  }
  // Least squares y = a + b x + c x^2.
  double s[5] = {0, 0, 0, 0, 0}, t[3] = {0, 0, 0};
  for (size_t k = 0; k < xs.size(); ++k) {
    double p = 1;
    for (int e = 0; e < 5; ++e, p *= xs[k]) s[e] += p;
    t[0] += ys[k];
    t[1] += ys[k] * xs[k];
    t[2] += ys[k] * xs[k] * xs[k];
  }
  // Solve the 3x3 normal equations by Cramer's rule.
  auto det = [](double a, double b, double c, double d, double e, double f, double g, double h, double i) {
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  };
  const double D = det(s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4]);
  const double B = det(s[0], t[0], s[2], s[1], t[1], s[3], s[2], t[2], s[4]) / D;
  const double C = det(s[0], s[1], t[0], s[1], s[2], t[1], s[2], s[3], t[2]) / D;
  REQUIRE(C < 0);  // a maximum
  return guess * std::exp(-B / (2 * C));
}

reliability::GoodputConfig config(double horizon, double checkpoint, double restart) {
  reliability::GoodputConfig c;
  c.iteration = zs::core::Seconds(1);
  c.tokens_per_iteration = 1;
  c.units = 1;
  c.horizon = zs::core::Seconds(horizon);
  c.checkpoint_cost = zs::core::Seconds(checkpoint);
  c.restart = zs::core::Seconds(restart);
  return c;
}

}  // namespace

TEST_CASE("first-order regime: the simulated optimum interval is Young's sqrt(2 M C) within 10%") {
  const double M = 86400, C = 60;  // C / M = 7e-4
  const auto rates = job_failures(M);
  const auto cfg = config(20000 * M, C, 0);  // about 20,000 failures
  const double young = policy::young_interval(M, C);
  CHECK(young == zs::test::approx(3220).epsilon(0.001));
  const double best = best_interval(rates, cfg, young);
  MESSAGE("optimum " << best << " s, Young " << young << " s");
  CHECK(best == zs::test::approx(young).epsilon(0.10));
  // At the optimum, waste is 2 sqrt(C / 2M) to first order.
  const auto run = reliability::simulate_goodput_once(rates, cfg, young, 3, false);
  CHECK(run.useful / cfg.horizon.value() == zs::test::approx(1 - 2 * std::sqrt(C / (2 * M))).epsilon(0.002));
}

TEST_CASE("Daly 2006: R = 10 min, checkpoint 5 min, the optimum interval for M = 24 h and 6 h within 10%") {
  struct Case {
    double mtbf_h, daly_min;
  };
  for (const auto& c : {Case{24, 117}, Case{6, 57}}) {
    CAPTURE(c.mtbf_h);
    const double M = c.mtbf_h * 3600, delta = 300, R = 600;
    CHECK(policy::daly_interval(M, delta) / 60 == zs::test::approx(c.daly_min).epsilon(0.01));
    const auto rates = job_failures(M);
    const double best = best_interval(rates, config(20000 * M, delta, R), policy::daly_interval(M, delta));
    MESSAGE("M = " << c.mtbf_h << " h: optimum " << best / 60 << " min, Daly " << c.daly_min << " min");
    CHECK(best / 60 == zs::test::approx(c.daly_min).epsilon(0.10));
  }
  CHECK(policy::daly_interval(15 * 60, 300) / 60 == zs::test::approx(9.1).epsilon(0.01));
}

TEST_CASE("the Llama 3 table: 419 failures expected over 54 days on 16,384 units, as simulated") {
  const auto rates = shipped_rates();
  CHECK(rates.job_rate_per_hour(16384) * 54 * 24 == zs::test::approx(419).epsilon(1e-9));
  auto cfg = config(54 * 86400.0, 120, 600);
  cfg.units = 16384;
  cfg.iteration = zs::core::Seconds(10);
  cfg.tokens_per_iteration = 16e6;
  cfg.detection = zs::core::Seconds(300);
  cfg.spares = 256;
  cfg.swap = zs::core::Seconds(600);
  cfg.repair = zs::core::Seconds(2 * 86400);
  const uint32_t seeds = 20;
  const auto s = reliability::simulate_goodput(rates, cfg, 11, seeds);
  // The seeds' total is Poisson with mean 20 x 419: within three standard deviations.
  CHECK(std::abs(s.failures.mean - 419) < 3 * std::sqrt(419.0 / seeds));
  CHECK(std::abs(s.by_component.at("gpu").mean - 190) < 3 * std::sqrt(190.0 / seeds));
  CHECK(std::abs(s.by_component.at("hbm").mean - 72) < 3 * std::sqrt(72.0 / seeds));
  // Every stop but silent corruptions not yet found: interruptions close to failures.
  CHECK(s.interruptions.mean <= s.failures.mean);
  CHECK(s.interruptions.mean > 0.97 * s.failures.mean);
  // The parts of the wall time add up to it.
  const auto& r = s.first;
  CHECK(r.useful + r.recompute + r.checkpoint + r.detection + r.restart + r.waiting ==
        zs::test::approx(cfg.horizon.value()).epsilon(1e-9));
  // First order: each failure starts a downtime of L (detection, restart, a swap for replaced parts);
  // one during a downtime abandons what was left of it (L/2 on average) and loses no work; one while
  // running loses half an interval of work (a whole one during a checkpoint). Failures are Poisson, so a
  // fraction down / horizon of them falls in downtimes.
  const double tau = s.interval, delta = cfg.checkpoint_cost.value(), F = s.failures.mean,
               H = cfg.horizon.value();
  const double replaced = s.by_component.at("gpu").mean + s.by_component.at("hbm").mean +
                          s.by_component.at("host").mean + s.by_component.at("nic").mean;
  const double L = cfg.detection.value() + cfg.restart.value() + replaced / F * cfg.swap.value();
  const double down = F * L / (1 + F * L / (2 * H));
  const double failures_running = F * (1 - down / H);
  const double lost = failures_running * (tau / (tau + delta) * tau / 2 + delta / (tau + delta) * tau);
  const double first_order = ((H - down) * tau / (tau + delta) - lost) / H;
  MESSAGE("ETTR " << s.ettr.mean << " +- " << s.ettr.half_width << ", first order " << first_order
                  << ", interval " << tau << " s");
  CHECK(s.ettr.mean == zs::test::approx(first_order).epsilon(0.02));
  CHECK(s.goodput.mean == zs::test::approx(s.ettr.mean * 16e6 / 10).epsilon(1e-9));
}

TEST_CASE("spares: a failed unit costs the swap while spares last, the repair when there are none") {
  const double M = 100 * 86400.0;
  const auto rates = job_failures(M, "replace", "unit", 1);
  auto cfg = config(2000 * 86400.0, 60, 600);
  cfg.swap = zs::core::Seconds(900);
  cfg.repair = zs::core::Seconds(4 * 3600);
  cfg.spares = 2;
  const auto with = reliability::simulate_goodput_once(rates, cfg, 3600, 5, true);
  REQUIRE(with.interruptions > 5);
  CHECK(with.waiting == zs::test::approx(900.0 * with.interruptions).epsilon(1e-9));
  cfg.spares = 0;
  const auto without = reliability::simulate_goodput_once(rates, cfg, 3600, 5, true);
  CHECK(without.interruptions == with.interruptions);  // the same failures
  CHECK(without.waiting == zs::test::approx(4 * 3600.0 * without.interruptions).epsilon(1e-9));
  CHECK(without.useful < with.useful);
  CHECK(without.timeline.front().action == "wait for repair");
  CHECK(with.timeline.front().action == "swap 1 spare");
}

TEST_CASE("a silent corruption rolls back at the next checkpoint, losing that interval") {
  nlohmann::json j = {
      {"kind", "failure-rates"},
      {"name", "sdc"},
      {"source", "test value"},
      {"observed", {{"units", 1}, {"units_per_host", 8}, {"duration", "10d"}}},
      {"components",
       {{{"name", "sdc"}, {"per", "job"}, {"count", 1}, {"recovery", "restart"}, {"silent", true}}}}};
  core::JsonObject o(j, "sdc.json", "");
  const auto rates = reliability::FailureRates::from_json(o);
  const auto cfg = config(1000 * 86400.0, 60, 600);
  const auto run = reliability::simulate_goodput_once(rates, cfg, 3600, 9, true);
  REQUIRE(run.failures > 50);
  // Each corruption (two in one interval count once) costs one whole interval and a restart.
  CHECK(run.recompute == zs::test::approx(3600.0 * run.interruptions).epsilon(1e-9));
  CHECK(run.restart == zs::test::approx(600.0 * run.interruptions).epsilon(1e-6));
  CHECK(run.timeline.front().action.find("rollback") == 0);
}

TEST_CASE("the same seed gives the same timeline, another seed another") {
  const auto rates = shipped_rates();
  auto cfg = config(54 * 86400.0, 120, 600);
  cfg.units = 16384;
  const auto a = reliability::simulate_goodput_once(rates, cfg, 3600, 1, true);
  const auto b = reliability::simulate_goodput_once(rates, cfg, 3600, 1, true);
  const auto c = reliability::simulate_goodput_once(rates, cfg, 3600, 2, true);
  REQUIRE(a.timeline.size() == b.timeline.size());
  for (size_t i = 0; i < a.timeline.size(); ++i) {
    CHECK(a.timeline[i].at == b.timeline[i].at);
    CHECK(a.timeline[i].component == b.timeline[i].component);
    CHECK(a.timeline[i].instance == b.timeline[i].instance);
  }
  CHECK(a.useful == b.useful);
  CHECK(c.useful != a.useful);
}

TEST_CASE("bad rate tables name the file and the JSON path") {
  auto error_of = [](nlohmann::json component) {
    nlohmann::json j = {{"kind", "failure-rates"},
                        {"name", "bad"},
                        {"source", "test value"},
                        {"observed", {{"units", 16}, {"units_per_host", 8}, {"duration", "1d"}}},
                        {"components", {component}}};
    core::JsonObject o(j, "bad.json", "");
    try {
      reliability::FailureRates::from_json(o);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  nlohmann::json ok = {{"name", "gpu"}, {"per", "unit"}, {"count", 3}, {"recovery", "replace"}};
  CHECK(error_of(ok) == "(no error)");
  auto with = [&](const char* key, nlohmann::json v) {
    auto c = ok;
    c[key] = v;
    return error_of(c);
  };
  CHECK(
      with("count", 0).find("bad.json: /components/0/count: expected the number of failures observed, > 0") ==
      0);
  CHECK(with("count", -2).find("bad.json: /components/0/count") == 0);
  CHECK(with("per", "pod")
            .find("bad.json: /components/0/per: unknown per \"pod\" (known: unit, host, rack, "
                  "switch, power-domain, link, optical-port, memory-pool, job)") == 0);
  CHECK(
      with("recovery", "reboot")
          .find("bad.json: /components/0/recovery: unknown recovery \"reboot\" (known: restart, replace)") ==
      0);
  // Links and optical ports are counted on the machine too, and the job restarts around them.
  CHECK(with("per", "link").find("bad.json: /components/0: missing required key \"observed_instances\"") ==
        0);
  auto port = ok;
  port["per"] = "optical-port";
  port["observed_instances"] = 100;
  CHECK(error_of(port).find("bad.json: /components/0/recovery: expected \"restart\" for a component per "
                            "optical-port") == 0);
  port["recovery"] = "restart";
  CHECK(error_of(port) == "(no error)");
  // So are memory pools, whose ranks move to other pools: nothing to replace.
  auto pool = port;
  pool["per"] = "memory-pool";
  CHECK(error_of(pool) == "(no error)");
  pool["recovery"] = "replace";
  CHECK(error_of(pool).find("bad.json: /components/0/recovery: expected \"restart\" for a component per "
                            "memory-pool") == 0);
  // A rack or switch rate needs how many were observed, and only those take it.
  CHECK(with("per", "rack").find("bad.json: /components/0: missing required key \"observed_instances\"") ==
        0);
  CHECK(with("observed_instances", 4).find("bad.json: /components/0/observed_instances: unknown key") == 0);
  CHECK(with("recovery", "pray").find("bad.json: /components/0/recovery") == 0);
  CHECK(with("weibull_shape", 0).find("bad.json: /components/0/weibull_shape") == 0);
  CHECK(with("colour", "red").find("bad.json: /components/0") == 0);
}
