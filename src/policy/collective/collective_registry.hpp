// The collective policy family: the factory every entry provides and the registry that lists them.
#pragma once

#include <functional>
#include <memory>

#include "core/registry.hpp"
#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

class CollectiveRegistry;

/// Makes a collective policy: `options` set the chunking of the pipelined algorithms; `catalog` is the
/// family the entry is made from, the policies a chooser among them (`auto`) weighs.
using CollectiveFactory = std::function<std::unique_ptr<CollectivePolicy>(const CollectiveOptions& options,
                                                                          const CollectiveRegistry& catalog)>;

/// The collective policies, built in and added by plugins, in the order they were added.
class CollectiveRegistry : public core::Registry<CollectiveFactory> {
 public:
  using Registry::Registry;
};

/// The family's name, as messages and `zettasim list` write it.
inline constexpr const char* kCollectiveFamily = "collective policy";

}  // namespace zs::policy
