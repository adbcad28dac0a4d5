// Reading the price and service life of a hardware part.
#include "hw/part_price.hpp"

namespace zs::hw {

std::vector<core::Param> part_price_params(const std::string& what) {
  return {core::Param::number("price_usd", 0.0, 1e10,
                              "purchase price of " + what +
                                  ", US dollars; left out, the part has no price and "
                                  "a cost from prices refuses the machine")
              .optional()
              .cite(),
          core::Param::seconds("lifetime",
                               "service life over which price_usd is amortized (\"5y\"); required with "
                               "price_usd")
              .optional()
              .cite()};
}

std::vector<core::Param> with_part_price(std::vector<core::Param> params, const std::string& what) {
  for (auto& p : part_price_params(what)) params.push_back(std::move(p));
  return params;
}

std::optional<PartPrice> read_part_price(core::ParamReader& reader) {
  const bool priced = reader.has("price_usd");
  const bool lived = reader.has("lifetime");
  if (!priced && !lived) return std::nullopt;
  if (!lived)
    throw reader.error("lifetime",
                       "missing; a part with price_usd needs the service life it is "
                       "amortized over (\"5y\")");
  if (!priced) throw reader.error("price_usd", "missing; lifetime is given without the price it amortizes");
  return PartPrice{*reader.find<double>("price_usd"), *reader.find<core::Seconds>("lifetime")};
}

}  // namespace zs::hw
