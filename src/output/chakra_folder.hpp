// Writes a trace as a folder of Chakra execution traces, atomically.
#pragma once

#include <cstdint>
#include <filesystem>

#include "chakra/chakra_export.hpp"
#include "core/staged_directory.hpp"
#include "workload/trace.hpp"

namespace zs::output {

/// Writes "<dir>/<trace name>.<rank>.et" for every rank: the folder appears complete or not at all (an
/// earlier export there is replaced, another folder only with Replace::kForce). Returns the files written.
/// The trace's name must be a safe file name; a failure to write is a core::InputError naming `dir`.
/// `compute_time`, when given, is each compute op's time on its rank's unit (Chakra's duration_micros).
uint64_t write_chakra_folder(const workload::Trace& trace, const std::filesystem::path& dir,
                             core::Replace replace, const chakra::ComputeTime& compute_time = {});

}  // namespace zs::output
