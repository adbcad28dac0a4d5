// Megatron-LM's flags outside the rules: those ignored (with why), those refused, and older spellings.
#pragma once

#include <vector>

namespace zs::workload::megatron {

/// A flag accepted and left out of the model, or refused, with why.
struct FlagNote {
  const char* name;
  const char* why;
};

/// Megatron-LM's flags that do not change an iteration's time as zettasim models it (a value follows unless
/// the next word is a flag).
const std::vector<FlagNote>& ignored_flags();
/// Megatron-LM's flags that change the job in ways zettasim does not model: refused by name.
const std::vector<FlagNote>& unmodelled_flags();
/// Older spellings read as the flag and value they stand for: {alias, flag, value}.
struct FlagAlias {
  const char* alias;
  const char* flag;
  const char* value;
};
const std::vector<FlagAlias>& flag_aliases();

}  // namespace zs::workload::megatron
