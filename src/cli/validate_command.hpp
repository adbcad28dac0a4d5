// `zettasim validate`: predicted against published throughput for every row of a validation file.
#pragma once

#include <ostream>
#include <string>

namespace zs::cli {

struct ValidateOptions {
  std::string file;     ///< validation file; empty: the embedded scenarios/validation/megatron-sc21.json
  std::string out_dir;  ///< default results/validate-<name>
  std::string rows;     ///< run only rows whose name contains this
  bool quiet = false;
  bool force = false;  ///< replace an existing folder that zettasim did not write
};

/// Runs each row as a scenario through the normal path (load, simulate), prints predicted vs published
/// TFLOP/s per GPU and the error, writes validation.json, validation.csv and report.txt atomically.
/// Returns 0 when the file's acceptance holds, 1 when it does not; bad input throws core::InputError.
int run_validate(const ValidateOptions& opt, std::ostream& out);

/// The validation file `zettasim validate` uses when given none.
inline constexpr const char* kDefaultValidation = "scenarios/validation/megatron-sc21.json";

}  // namespace zs::cli
