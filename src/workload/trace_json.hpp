// The trace file format (JSON or CBOR, format_version 1): writing a Trace and reading one back, strictly.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

/// The trace as a JSON document (kind "trace"); quantities as exact unit strings ("1.5GB"), so that
/// reading it back gives the same numbers to the bit. Defaults are left out. Documented in
/// workloads/README.md, schema workloads/trace.schema.json.
nlohmann::json trace_to_json(const Trace& trace);

/// The compact binary form: the same document as CBOR (RFC 8949), after the 3-byte self-describe tag
/// 0xD9D9F7 that marks a CBOR file. Python's cbor2 and any CBOR library read it.
std::string trace_to_cbor(const Trace& trace);

/// A trace document from a file's bytes: CBOR when it starts with the self-describe tag, else JSON.
/// Malformed content is a core::InputError naming `file`.
nlohmann::json parse_trace_document(const std::string& bytes, const std::string& file);

/// Reads a trace document. Unknown keys, wrong units, a missing body, a format version other than
/// Trace::kFormatVersion and structural errors (validate) are core::InputError naming `file` and the
/// JSON path.
Trace trace_from_json(const nlohmann::json& doc, const std::string& file);

/// An all-to-all's expert dispatch as its trace JSON object, and back (strict: unknown keys are errors).
nlohmann::json dispatch_to_json(const ExpertDispatch& dispatch);
ExpertDispatch read_dispatch(core::JsonObject object);

}  // namespace zs::workload
