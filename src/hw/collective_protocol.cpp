// Names, bandwidth fractions and base latencies of the collective library protocols.
#include "hw/collective_protocol.hpp"

namespace zs::hw {

std::string_view to_string(CollectiveProtocol protocol) {
  switch (protocol) {
    case CollectiveProtocol::kSimple:
      return "simple";
    case CollectiveProtocol::kLl128:
      return "ll128";
    case CollectiveProtocol::kLl:
      return "ll";
  }
  return "simple";
}

double bandwidth_fraction(CollectiveProtocol protocol) {
  switch (protocol) {
    case CollectiveProtocol::kSimple:
      return 1.0;
    case CollectiveProtocol::kLl128:
      return 0.92;
    case CollectiveProtocol::kLl:
      return 0.25;
  }
  return 1.0;
}

core::Seconds base_latency(LibraryAlgorithm algorithm, CollectiveProtocol protocol) {
  if (algorithm == LibraryAlgorithm::kNvls)
    return core::Seconds(protocol == CollectiveProtocol::kSimple ? 25.0e-6 : 0.0);
  const bool ring = algorithm == LibraryAlgorithm::kRing;
  switch (protocol) {
    case CollectiveProtocol::kSimple:
      return core::Seconds(ring ? 8.4e-6 : 0.0);
    case CollectiveProtocol::kLl128:
      return core::Seconds(14.0e-6);
    case CollectiveProtocol::kLl:
      return core::Seconds(ring ? 6.6e-6 : 6.8e-6);
  }
  return core::Seconds(0.0);
}

bool runs_under(LibraryAlgorithm algorithm, CollectiveProtocol protocol) {
  return algorithm != LibraryAlgorithm::kNvls || protocol == CollectiveProtocol::kSimple;
}

}  // namespace zs::hw
