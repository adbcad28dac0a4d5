// What collective policies estimate their cost from: alpha-beta models of a communicator's routes.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "hw/collective_protocol.hpp"
#include "policy/collective/collective_policy.hpp"
#include "topology/router.hpp"

namespace zs::policy {

/// The alpha-beta model of the members' network: the slowest route latency and the narrowest route
/// bandwidth over the routes measured.
struct AlphaBeta {
  double alpha = 0;                                       ///< s
  double bandwidth = std::numeric_limits<double>::max();  ///< B/s
  /// The slowest route's own latency, without a collective library's step latency: what the chunks
  /// behind a pipeline's first pay (Transfer::pipelined), s.
  double wire = 0;
  /// The largest step latency of the routes under each protocol (hw::CollectiveProtocol order; 0 with
  /// the machine's step latency off), s: for the library's ring row, and for its tree's.
  std::array<double, hw::kCollectiveProtocols.size()> step{}, tree_step{};

  /// Takes a route's latency and step latencies into account (its bandwidth is the caller's).
  void include_latency(const topology::Machine& machine, const std::vector<topology::LinkId>& links);
  /// Takes route a -> b into account (nothing when a and b are one unit).
  void include(const topology::Machine& machine, topology::Router& router, topology::NodeId a,
               topology::NodeId b);
  /// The model a collective running under `protocol` sees: every transfer at least the protocol's step
  /// latency (the library's row for `algorithm`), its payload at the protocol's fraction of the bandwidth
  /// (ProtocolChoice).
  AlphaBeta under(hw::CollectiveProtocol protocol,
                  hw::LibraryAlgorithm algorithm = hw::LibraryAlgorithm::kRing) const;
  /// Ends the measurement: with no route measured (all on one unit), a bandwidth that costs nothing.
  AlphaBeta& done();
};

/// The alpha-beta models inside one domain and across domains (among the domains' first members).
struct DomainLinks {
  AlphaBeta inside, between;
  DomainLinks under(hw::CollectiveProtocol protocol) const {
    return {inside.under(protocol), between.under(protocol)};
  }
};

/// Communicators of at most this many members have every transfer of a step routed to find the links
/// the step's transfers share; larger ones are estimated from sampled routes, without sharing.
inline constexpr size_t kSharedRouteMembers = 1024;

/// The routes of one collective request, measured as the policies' estimates ask for them and kept for
/// the next policy that asks (CollectivePolicy::estimate): one object per request, so that the `auto`
/// policy routes each pattern once however many candidates it weighs. Not shared between threads.
class RouteMeasurements {
 public:
  /// Routers kept between requests on one machine (a router's construction and maps dominate on large
  /// machines): the ECMP routes step() measures and the lowest-id routes the others measure.
  struct SharedRouters {
    explicit SharedRouters(const topology::Machine& machine)
        : ecmp(machine, topology::PathSelection::kEcmpHash),
          lowest(machine, topology::PathSelection::kLowestId) {}
    topology::Router ecmp, lowest;
  };
  /// Throws std::invalid_argument when the request names no machine. `shared`: routers of the request's
  /// machine to route with instead of the request's own (they must outlive this object).
  explicit RouteMeasurements(const CollectiveRequest& request, SharedRouters* shared = nullptr);
  const CollectiveRequest& request() const { return request_; }

  /// The slowest route latency and narrowest route bandwidth from any member to member 0 (one route
  /// per pair, lowest ids first).
  const AlphaBeta& all();
  /// The ring's neighbour exchange (member i to i + 1) with the links its transfers share (step), or
  /// all() beyond kSharedRouteMembers.
  const AlphaBeta& ring();
  /// The recursive exchanges among the largest power of two of the members, by log2(distance): every
  /// member i sends to i ^ distance at once (step); beyond kSharedRouteMembers, the slowest latency and
  /// narrowest bandwidth of the routes of at most 16 members spread evenly.
  const std::vector<AlphaBeta>& recursive_rounds();
  /// The members' equal domains (member_domains); empty when they form none.
  const std::vector<std::vector<uint32_t>>& domains();
  /// The links inside the first domain and across the domains' first members; requires domains().
  const DomainLinks& domain_links();
  /// How many domains of how many members, with their links under `protocol`: what the algorithms that
  /// reduce or gather domain by domain estimate from. None for a request that neither reduces nor gathers
  /// (reduces_or_gathers), or whose members form no domains.
  struct DomainShape {
    double domains = 0, members = 0;
    DomainLinks links;
  };
  std::optional<DomainShape> reduction_domains(hw::CollectiveProtocol protocol);

  /// A step in which every pair (i, j) of members (indices into the request) sends at once, over the
  /// routes the engine takes (per-connection ECMP): the slowest route latency, and the narrowest share
  /// of bandwidth any transfer gets, a link direction's bandwidth split evenly among the transfers
  /// crossing it (max-min sharing when they are equal).
  AlphaBeta step(const std::vector<std::pair<uint32_t, uint32_t>>& pairs);
  /// The slowest route latency and narrowest route bandwidth from any of `members` (indices into the
  /// request) to the first of them.
  AlphaBeta among(const std::vector<uint32_t>& members) const;

 private:
  const CollectiveRequest& request_;
  /// The ECMP routes of every step(): one router's maps serve them all (the shared one, or its own).
  std::optional<topology::Router> own_routes_;
  topology::Router* step_routes_;
  SharedRouters* shared_;
  /// A lowest-id router: the shared one, or `local` made for the caller.
  topology::Router& lowest_id(std::optional<topology::Router>& local) const;
  std::optional<AlphaBeta> all_, ring_;
  std::optional<std::vector<AlphaBeta>> rounds_;
  std::optional<std::vector<std::vector<uint32_t>>> domains_;
  std::optional<DomainLinks> domain_links_;
};

/// The largest power of two at most the request's members.
uint32_t recursive_members(const CollectiveRequest& request);

}  // namespace zs::policy
