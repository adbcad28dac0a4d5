// The capital cost of one hardware part: its price and the service life it is amortized over.
#pragma once

#include <optional>
#include <vector>

#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"

namespace zs::hw {

/// What one part costs to own: its purchase price spread evenly over its service life.
struct PartPrice {
  double usd = 0;          ///< purchase price of one part, US dollars
  core::Seconds lifetime;  ///< service life the price is amortized over, s
  /// Capital cost per second of ownership, US dollars per s.
  double usd_per_second() const { return usd / lifetime.value(); }
};

/// The two optional parameters every priced model kind declares, `price_usd` and `lifetime`, with `what`
/// naming what one priced part is ("one unit with its share of its host").
std::vector<core::Param> part_price_params(const std::string& what);
/// `params` followed by part_price_params(what).
std::vector<core::Param> with_part_price(std::vector<core::Param> params, const std::string& what);

/// Reads price_usd and lifetime: both or neither (a price without a lifetime is an input error naming the
/// missing key); nothing when the file gives neither.
std::optional<PartPrice> read_part_price(core::ParamReader& reader);

}  // namespace zs::hw
