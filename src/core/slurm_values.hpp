// Slurm's grammars for the values zettasim writes into job scripts and sbatch commands: host names,
// partitions, job names, accounts and time limits. Each check returns what was expected, or nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zs::core {

/// A host name as Slurm and the shell take it as one word: ASCII letters, digits, '-', '_' and '.',
/// starting with a letter or digit, dot-separated labels of 1 to 63 characters, at most 253 in all
/// (RFC 1123 host names, with the underscore Slurm's node names allow).
std::optional<std::string> host_name_problem(std::string_view name);

/// A partition (or Slurm's comma-separated list of them): names of letters, digits, '_', '-' and '.',
/// at most 255 characters in all.
std::optional<std::string> partition_problem(std::string_view partition);

/// A job name: 1 to 128 letters, digits and '_', '-', '.', '+', ':', '@'; no space, quote or control
/// character (an #SBATCH line is read by sbatch's own word splitter, not the shell's).
std::optional<std::string> job_name_problem(std::string_view name);

/// An account: letters, digits, '_', '-' and '.', at most 255 characters.
std::optional<std::string> account_problem(std::string_view account);

/// A time limit in one of sbatch's formats: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
/// days-hours:minutes, days-hours:minutes:seconds (each field 1 to 9 digits), or UNLIMITED / INFINITE.
std::optional<std::string> time_limit_problem(std::string_view time);

/// A further sbatch option for a sweep's job array: "--NAME" or "--NAME=VALUE" with NAME among the
/// options that only shape the allocation (kSbatchOptions: resources, QoS, constraints, mail) and a VALUE
/// without control characters. Options that name files, change the environment or working folder, or
/// replace the script (--output, --export, --chdir, --wrap, ...) are refused: the job's script and its
/// log files are zettasim's.
std::optional<std::string> sbatch_option_problem(std::string_view option);

/// The sbatch options sbatch_option_problem accepts, for messages and docs.
inline constexpr const char* kSbatchOptions =
    "begin, clusters, comment, constraint, contiguous, cores-per-socket, cpus-per-gpu, cpus-per-task, "
    "deadline, dependency, exclude, exclusive, gpus, gpus-per-node, gpus-per-task, gres, hint, hold, "
    "licenses, "
    "mail-type, mail-user, mem, mem-per-cpu, mem-per-gpu, nice, no-requeue, nodelist, nodes, ntasks, "
    "ntasks-per-node, oversubscribe, priority, qos, requeue, reservation, sockets-per-node, switches, "
    "threads-per-core, time-min, tmp, wckey";

/// Throws core::InputError(`file`, `json_path`, "expected ..., got \"value\"") when `problem` holds one
/// (`file` is the option's name for a command-line value, such as "--job-name").
void require_slurm_value(const std::optional<std::string>& problem, std::string_view value,
                         const std::string& file, const std::string& json_path = "");

}  // namespace zs::core
