// Software-stack models: the shipped stacks load, their values default to zero, and a value needs its source.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "hw/software_stack_model.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"

using namespace zs;

namespace {

hw::SoftwareStackModel read(const nlohmann::json& doc) {
  core::JsonObject o(doc, "stack.json", "");
  return hw::SoftwareStackModel::from_json(o);
}

}  // namespace

TEST_CASE("the shipped software stacks load, every cost zero until a calibration fits it") {
  core::DiskFileSource files;
  for (const char* name : {"megatron-lm-2021", "megatron-core-te", "deepspeed-2021"}) {
    CAPTURE(name);
    auto doc = files.read_json(test::source_file(std::string("models/") + name + ".json"));
    const auto stack = read(doc);
    CHECK(stack.name() == name);
    CHECK(stack.per_layer_pass().value() == 0);
    CHECK(stack.per_moe_layer_forward().value() == 0);
    CHECK(stack.per_step().value() == 0);
    CHECK(stack.per_iteration().value() == 0);
  }
}

TEST_CASE("a software stack's values default to zero and a value given needs its source") {
  const auto bare = read({{"kind", "software-stack"},
                          {"name", "bare"},
                          {"description", "d"},
                          {"sources", nlohmann::json::object()}});
  CHECK(bare.per_layer_pass().value() == 0);
  CHECK(bare.describe() ==
        "bare: per layer pass 0 s, per MoE layer forward 0 s, per pipeline step 0 s, per iteration 0 s");
  CHECK(test::input_error_of([] {
          read({{"kind", "software-stack"}, {"name", "x"}, {"description", "d"}, {"per_step", "1ms"}});
        }).find("sources") != std::string::npos);
  CHECK(test::input_error_of([] {
          read({{"kind", "software-stack"},
                {"name", "x"},
                {"description", "d"},
                {"per_step", "-1ms"},
                {"sources", {{"per_step", "t"}}}});
        }).find("/per_step") != std::string::npos);
}
