// Checked building of JSON documents: duplicate keys, depth and number range, with the JSON path.
#include "core/checked_dom_builder.hpp"

#include <cmath>

#include "core/file_name.hpp"
#include "core/json_object.hpp"

namespace zs::core {

bool CheckedDomBuilder::null() {
  value_done();
  return dom_.null();
}

bool CheckedDomBuilder::boolean(bool value) {
  value_done();
  return dom_.boolean(value);
}

bool CheckedDomBuilder::number_integer(number_integer_t value) {
  value_done();
  return dom_.number_integer(value);
}

bool CheckedDomBuilder::number_unsigned(number_unsigned_t value) {
  value_done();
  return dom_.number_unsigned(value);
}

bool CheckedDomBuilder::number_float(number_float_t value, const string_t& text) {
  if (!std::isfinite(value)) return fail("a number out of range (a double holds up to about 1.8e308)");
  value_done();
  return dom_.number_float(value, text);
}

bool CheckedDomBuilder::string(string_t& value) {
  value_done();
  return dom_.string(value);
}

bool CheckedDomBuilder::binary(binary_t& value) {
  value_done();
  return dom_.binary(value);
}

bool CheckedDomBuilder::start_object(std::size_t elements) {
  if (elements != SIZE_MAX && elements > input_bytes_)
    return fail("an object declared with " + std::to_string(elements) + " members, more than the " +
                std::to_string(input_bytes_) + " bytes of input hold");
  return enter(true) && dom_.start_object(elements);
}

bool CheckedDomBuilder::key(string_t& value) {
  Frame& frame = frames_.back();
  frame.key = value;
  if (!frame.keys.insert(value).second)
    return fail("duplicate key " + quoted_for_message(value) + " (each key may appear once in an object)");
  return dom_.key(value);
}

bool CheckedDomBuilder::end_object() {
  return leave() && dom_.end_object();
}

bool CheckedDomBuilder::start_array(std::size_t elements) {
  if (elements != SIZE_MAX && elements > input_bytes_)
    return fail("an array declared with " + std::to_string(elements) + " elements, more than the " +
                std::to_string(input_bytes_) + " bytes of input hold");
  return enter(false) && dom_.start_array(elements);
}

bool CheckedDomBuilder::end_array() {
  return leave() && dom_.end_array();
}

bool CheckedDomBuilder::parse_error(std::size_t position, const std::string& /*last_token*/,
                                    const nlohmann::detail::exception& ex) {
  if (problem_) return false;  // our own check stopped the parser first
  std::string what = ex.what();
  if (const auto bracket = what.find("] ");
      what.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
    what = what.substr(bracket + 2);
  if (ex.id == 406) what = "a number out of range (a double holds up to about 1.8e308)";
  problem_ = Problem{path(), position, what, ex.id != 406};
  return false;
}

bool CheckedDomBuilder::enter(bool object) {
  if (frames_.size() >= kMaxJsonDepth) {
    frames_.resize(4);  // the path of the first levels is enough to find it; the parse stops here
    problem_ = Problem{
        path() + "/...", std::nullopt,
        "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels of arrays and objects", false};
    return false;
  }
  Frame frame;
  frame.object = object;
  frames_.push_back(std::move(frame));
  return true;
}

bool CheckedDomBuilder::leave() {
  frames_.pop_back();
  value_done();
  return true;
}

void CheckedDomBuilder::value_done() {
  if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
}

std::string CheckedDomBuilder::path() const {
  std::string out;
  for (const auto& f : frames_)
    out = f.object ? json_pointer_append(out, f.key) : out + "/" + std::to_string(f.index);
  return out;
}

bool CheckedDomBuilder::fail(std::string message) {
  problem_ = Problem{path(), std::nullopt, std::move(message), false};
  return false;
}

}  // namespace zs::core
