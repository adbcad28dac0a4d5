// Names and bandwidth fractions of the collective library protocols.
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

}  // namespace zs::hw
