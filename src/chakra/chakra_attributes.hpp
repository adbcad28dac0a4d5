// Chakra node attributes by name, whatever integer encoding the producer chose. Internal to the chakra layer
// and its tests (it includes the generated protobuf header).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "et_def.pb.h"

namespace zs::chakra {

/// Chakra's schema version written into GlobalMetadata by export.
inline constexpr const char* kChakraVersion = "0.0.4";
/// The attribute (of GlobalMetadata and of every node) holding what Chakra cannot express, as JSON.
inline constexpr const char* kZettasimAttribute = "zettasim";

/// The attribute named `name`, or nullptr.
const ChakraProtoMsg::AttributeProto* find_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, std::string_view name);

/// An integer attribute in any of Chakra's integer encodings (producers differ: ASTRA-sim's feeder reads
/// comm_size as int64, Chakra's own generator writes uint64). nullopt when absent; a non-integer value
/// or one outside int64 throws core::InputError naming `file` and `path`.
std::optional<int64_t> integer_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, std::string_view name,
    const std::string& file, const std::string& path);
/// A boolean attribute (bool_val, or an integer 0/1); nullopt when absent.
std::optional<bool> bool_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, std::string_view name,
    const std::string& file, const std::string& path);
/// A string attribute; nullopt when absent.
std::optional<std::string> string_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, std::string_view name,
    const std::string& file, const std::string& path);

ChakraProtoMsg::AttributeProto int64_attribute(std::string name, int64_t value);
ChakraProtoMsg::AttributeProto int32_attribute(std::string name, int32_t value);
ChakraProtoMsg::AttributeProto uint64_attribute(std::string name, uint64_t value);
ChakraProtoMsg::AttributeProto bool_attribute(std::string name, bool value);
ChakraProtoMsg::AttributeProto string_attribute(std::string name, std::string value);

}  // namespace zs::chakra
