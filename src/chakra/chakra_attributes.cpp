// Chakra attribute access.
#include "chakra/chakra_attributes.hpp"

#include <limits>

#include "core/input_error.hpp"

namespace zs::chakra {

using ChakraProtoMsg::AttributeProto;
using Attributes = google::protobuf::RepeatedPtrField<AttributeProto>;

const AttributeProto* find_attribute(const Attributes& attrs, std::string_view name) {
  for (const auto& a : attrs)
    if (a.name() == name) return &a;
  return nullptr;
}

std::optional<int64_t> integer_attribute(const Attributes& attrs, std::string_view name,
                                         const std::string& file, const std::string& path) {
  const auto* a = find_attribute(attrs, name);
  if (a == nullptr) return std::nullopt;
  const std::string at = path + "/attr/" + std::string(name);
  auto unsigned_value = [&](uint64_t v) -> int64_t {
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      throw core::InputError(file, at, "value " + std::to_string(v) + " is out of range");
    return static_cast<int64_t>(v);
  };
  switch (a->value_case()) {
    case AttributeProto::kInt32Val:
      return a->int32_val();
    case AttributeProto::kInt64Val:
      return a->int64_val();
    case AttributeProto::kUint32Val:
      return a->uint32_val();
    case AttributeProto::kUint64Val:
      return unsigned_value(a->uint64_val());
    case AttributeProto::kSint32Val:
      return a->sint32_val();
    case AttributeProto::kSint64Val:
      return a->sint64_val();
    case AttributeProto::kFixed32Val:
      return a->fixed32_val();
    case AttributeProto::kFixed64Val:
      return unsigned_value(a->fixed64_val());
    case AttributeProto::kSfixed32Val:
      return a->sfixed32_val();
    case AttributeProto::kSfixed64Val:
      return a->sfixed64_val();
    default:
      throw core::InputError(file, at, "expected an integer value");
  }
}

std::optional<bool> bool_attribute(const Attributes& attrs, std::string_view name, const std::string& file,
                                   const std::string& path) {
  const auto* a = find_attribute(attrs, name);
  if (a == nullptr) return std::nullopt;
  if (a->value_case() == AttributeProto::kBoolVal) return a->bool_val();
  const auto v = integer_attribute(attrs, name, file, path);
  if (*v != 0 && *v != 1)
    throw core::InputError(file, path + "/attr/" + std::string(name), "expected a boolean (or 0 / 1)");
  return *v == 1;
}

std::optional<std::string> string_attribute(const Attributes& attrs, std::string_view name,
                                            const std::string& file, const std::string& path) {
  const auto* a = find_attribute(attrs, name);
  if (a == nullptr) return std::nullopt;
  if (a->value_case() != AttributeProto::kStringVal)
    throw core::InputError(file, path + "/attr/" + std::string(name), "expected a string value");
  return a->string_val();
}

namespace {
AttributeProto named(std::string name) {
  AttributeProto a;
  a.set_name(std::move(name));
  return a;
}
}  // namespace

AttributeProto int64_attribute(std::string name, int64_t value) {
  auto a = named(std::move(name));
  a.set_int64_val(value);
  return a;
}
AttributeProto int32_attribute(std::string name, int32_t value) {
  auto a = named(std::move(name));
  a.set_int32_val(value);
  return a;
}
AttributeProto uint64_attribute(std::string name, uint64_t value) {
  auto a = named(std::move(name));
  a.set_uint64_val(value);
  return a;
}
AttributeProto bool_attribute(std::string name, bool value) {
  auto a = named(std::move(name));
  a.set_bool_val(value);
  return a;
}
AttributeProto string_attribute(std::string name, std::string value) {
  auto a = named(std::move(name));
  a.set_string_val(std::move(value));
  return a;
}

}  // namespace zs::chakra
