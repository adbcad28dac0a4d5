// Torus generator, with optional optical circuit switches between blocks (TPU v4 style).
#include "topology/torus_generator.hpp"

#include <optional>
#include <string>
#include <vector>

namespace zs::topology {
namespace {

/// The optical part of a blocked torus: per dimension that has several blocks, one optical switch per
/// position on a block face; on it, block b's "+d" face chip is port 2b and its "-d" face chip 2b+1.
struct OpticalBlocks {
  std::vector<int64_t> block;                    ///< block size per dimension
  std::vector<int64_t> blocks;                   ///< blocks per dimension
  uint32_t model = 0;                            ///< optical switch model
  uint32_t circuit_link = 0;                     ///< link model of one circuit
  std::vector<std::vector<uint32_t>> switch_of;  ///< per dimension, per face position: optical switch
};

/// The "optical_blocks" parameter: blocks of the torus joined across their faces by optical circuit
/// switches; none when absent.
std::optional<OpticalBlocks> read_optical_blocks(core::ParamReader& params, ModelBinder& binder,
                                                 const Machine& machine, const std::vector<int64_t>& dims) {
  if (!params.has("optical_blocks")) return std::nullopt;
  const size_t nd = dims.size();
  core::ParamReader o = params.part("optical_blocks");
  const auto& block_json = o.list("block");
  if (block_json.size() != nd)
    throw o.error("block", "expected one block size per torus dimension (" + std::to_string(nd) + ")");
  OpticalBlocks ob;
  for (size_t d = 0; d < nd; ++d) {
    const auto& b = block_json[d];
    if (!b.is_number_integer() || b.get<int64_t>() < 1 || dims[d] % b.get<int64_t>() != 0)
      throw o.error("block", "block size " + b.dump() + " must divide dimension " + std::to_string(d) +
                                 " of size " + std::to_string(dims[d]));
    ob.block.push_back(b.get<int64_t>());
    ob.blocks.push_back(dims[d] / ob.block.back());
  }
  ob.model = binder.optical_switch_model(o, "model");
  o.finish();
  int64_t block_count = 1;
  for (int64_t b : ob.blocks) block_count *= b;
  const uint32_t ports = machine.optical_switch_models[ob.model].ports();
  if (2 * block_count > ports)
    throw params.error("optical_blocks", std::to_string(block_count) + " blocks need " +
                                             std::to_string(2 * block_count) +
                                             " ports per optical switch, but \"" +
                                             machine.optical_switch_models[ob.model].name() + "\" has " +
                                             std::to_string(ports));
  ob.circuit_link = binder.circuit_link_model(ob.model);
  return ob;
}

const core::ParamTable& optical_block_params() {
  static const core::ParamTable table(
      "topology.torus.optical-blocks",
      "blocks of the torus joined across their faces by optical circuit switches",
      {core::Param::list("block", "whole numbers, one per dimension, each dividing it",
                         "the size of one block"),
       core::Param::text("model", "an optical-circuit-switch model bound in the machine's models")});
  return table;
}

}  // namespace

const core::ParamTable& torus_params() {
  static const core::ParamTable table(
      "topology.torus", "1-3 dimensional torus of directly linked units (TPU-style)",
      {core::Param::list("dims", "1 to 3 whole numbers in [1, 1048576]", "the size of each dimension"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::text("link_model", "the link model between neighbours"),
       core::Param::boolean("wraparound", "whether the last unit of each ring links back to the first")
           .or_default(true),
       core::Param::object("optical_blocks", optical_block_params(),
                           "optical circuit switches joining blocks of the torus; left out, none")
           .optional()});
  return table;
}

void generate_torus(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  const auto& dims_json = params.list("dims");
  if (dims_json.empty() || dims_json.size() > 3)
    throw params.error("dims", "expected an array of 1 to 3 dimension sizes");
  std::vector<int64_t> dims;
  int64_t total = 1;
  for (const auto& d : dims_json) {
    if (!d.is_number_integer() || d.get<int64_t>() < 1 || d.get<int64_t>() > (1 << 20))
      throw params.error("dims", "every dimension must be a whole number in [1, 1048576], got " + d.dump());
    dims.push_back(d.get<int64_t>());
    total *= dims.back();
  }
  if (total > (int64_t(1) << 24)) throw params.error("dims", "more than 16,777,216 units");
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  const uint32_t link_model = binder.link_model(params, "link_model");
  const bool wrap = params.get<bool>("wraparound");
  const size_t nd = dims.size();

  std::optional<OpticalBlocks> optical = read_optical_blocks(params, binder, machine, dims);

  for (int64_t i = 0; i < total; ++i) machine.topology.add_unit("unit" + std::to_string(i), unit_model);
  const auto& units = machine.topology.units();
  std::vector<int64_t> strides(nd, 1);
  for (size_t d = 1; d < nd; ++d) strides[d] = strides[d - 1] * dims[d - 1];
  auto coord = [&](int64_t i, size_t d) { return (i / strides[d]) % dims[d]; };

  if (optical) {
    // One optical switch per (dimension with several blocks, position on the face across it).
    auto& ob = *optical;
    int64_t block_count = 1;
    for (int64_t b : ob.blocks) block_count *= b;
    ob.switch_of.resize(nd);
    for (size_t d = 0; d < nd; ++d) {
      if (ob.blocks[d] < 2) continue;
      int64_t face = 1;
      for (size_t e = 0; e < nd; ++e)
        if (e != d) face *= ob.block[e];
      for (int64_t f = 0; f < face; ++f) {
        // Ports: for each block in block-grid order, its chip at (+d face, f) then at (-d face, f).
        std::vector<NodeId> port_nodes;
        for (int64_t blk = 0; blk < block_count; ++blk) {
          int64_t rest = blk, inner = f, base = 0;
          std::vector<int64_t> c(nd);
          for (size_t e = 0; e < nd; ++e) {
            const int64_t bc = rest % ob.blocks[e];
            rest /= ob.blocks[e];
            if (e == d) {
              c[e] = bc * ob.block[e];
            } else {
              c[e] = bc * ob.block[e] + inner % ob.block[e];
              inner /= ob.block[e];
            }
          }
          for (size_t e = 0; e < nd; ++e) base += c[e] * strides[e];
          port_nodes.push_back(units[base + (ob.block[d] - 1) * strides[d]]);  // + face
          port_nodes.push_back(units[base]);                                   // - face
        }
        ob.switch_of[d].push_back(machine.topology.add_optical_switch(
            "ocs-d" + std::to_string(d) + "-f" + std::to_string(f), ob.model, std::move(port_nodes)));
      }
    }
  }

  for (size_t d = 0; d < nd; ++d) {
    const int64_t k = dims[d];
    for (int64_t i = 0; i < total; ++i) {
      const int64_t c = coord(i, d);
      if (k == 1 || (c == k - 1 && !wrap)) continue;
      const int64_t next = c == k - 1 ? i - c * strides[d] : i + strides[d];
      const bool crosses_blocks =
          optical && optical->blocks[d] > 1 && c % optical->block[d] == optical->block[d] - 1;
      if (!crosses_blocks) {
        machine.topology.add_link(units[i], units[next], link_model);
        continue;
      }
      // The circuit from this block's + face to the next block's - face, on the switch of this
      // face position.
      const auto& ob = *optical;
      auto block_of = [&](int64_t unit) {  // index in the block grid, first dimension fastest
        int64_t blk = 0, scale = 1;
        for (size_t e = 0; e < nd; ++e) {
          blk += (coord(unit, e) / ob.block[e]) * scale;
          scale *= ob.blocks[e];
        }
        return blk;
      };
      int64_t f = 0, fscale = 1;  // position on the face across dimension d
      for (size_t e = 0; e < nd; ++e)
        if (e != d) {
          f += (coord(i, e) % ob.block[e]) * fscale;
          fscale *= ob.block[e];
        }
      const int64_t blk = block_of(i), next_blk = block_of(next);
      machine.topology.add_circuit(ob.switch_of[d][f], static_cast<uint32_t>(2 * blk),
                                   static_cast<uint32_t>(2 * next_blk + 1), ob.circuit_link, true);
    }
  }
}

}  // namespace zs::topology
