// Torus generator, with optional optical circuit switches between blocks (TPU v4 style).
#include "topology/torus_generator.hpp"

#include <optional>
#include <string>
#include <vector>

namespace zs::topology {
namespace {

constexpr NodeId kNoNode = 0xffffffffu;  ///< a port left uncabled while the switch's ports are laid out

/// A block's two ports across one dimension: on switch `sw` of its face position, its "+d" face chip
/// on `port` and its "-d" face chip on port + 1.
struct BlockPorts {
  uint32_t sw = 0;
  uint32_t port = 0;
};

/// The optical part of a blocked torus: per dimension that has several blocks, optical switches per
/// position on a block face. When one switch has the ports for every block, it is the only one and block
/// b's "+d" face chip is its port 2b, the "-d" face chip port 2b+1; otherwise each switch serves whole
/// lines of blocks along d (the blocks that differ only in their d coordinate), as many as its ports hold.
struct OpticalBlocks {
  std::vector<int64_t> block;   ///< block size per dimension
  std::vector<int64_t> blocks;  ///< blocks per dimension
  int64_t block_count = 1;      ///< blocks in all
  uint32_t ports = 0;           ///< ports of one optical switch
  uint32_t model = 0;           ///< optical switch model
  uint32_t circuit_link = 0;    ///< link model of one circuit
  /// Per dimension, per face position, per switch of that position: the optical switch.
  std::vector<std::vector<std::vector<uint32_t>>> switch_of;

  /// Whether a face position needs more than one switch (the same for every dimension).
  bool split() const { return 2 * block_count > ports; }
  /// Block `blk`'s (block-grid index, first dimension fastest) ports across dimension d.
  BlockPorts ports_of(size_t d, int64_t blk) const {
    if (!split()) return {0, static_cast<uint32_t>(2 * blk)};
    int64_t rest = blk, line = 0, scale = 1, along = 0;
    for (size_t e = 0; e < blocks.size(); ++e) {
      const int64_t c = rest % blocks[e];
      rest /= blocks[e];
      if (e == d) {
        along = c;
      } else {
        line += c * scale;
        scale *= blocks[e];
      }
    }
    const int64_t lines_per_switch = ports / (2 * blocks[d]);
    return {static_cast<uint32_t>(line / lines_per_switch),
            static_cast<uint32_t>(2 * ((line % lines_per_switch) * blocks[d] + along))};
  }
  /// Switches per face position across dimension d.
  uint32_t switches(size_t d) const {
    if (!split()) return 1;
    const int64_t lines = block_count / blocks[d], lines_per_switch = ports / (2 * blocks[d]);
    return static_cast<uint32_t>((lines + lines_per_switch - 1) / lines_per_switch);
  }
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
  for (int64_t b : ob.blocks) ob.block_count *= b;
  ob.ports = machine.optical_switch_models[ob.model].ports();
  for (size_t d = 0; d < nd; ++d)
    if (ob.blocks[d] > 1 && 2 * ob.blocks[d] > ob.ports)
      throw params.error(
          "optical_blocks",
          "a line of " + std::to_string(ob.blocks[d]) + " blocks along dimension " + std::to_string(d) +
              " needs " + std::to_string(2 * ob.blocks[d]) + " ports on one optical switch, but \"" +
              machine.optical_switch_models[ob.model].name() + "\" has " + std::to_string(ob.ports));
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
    const int64_t block_count = ob.block_count;
    ob.switch_of.resize(nd);
    for (size_t d = 0; d < nd; ++d) {
      if (ob.blocks[d] < 2) continue;
      int64_t face = 1;
      for (size_t e = 0; e < nd; ++e)
        if (e != d) face *= ob.block[e];
      const uint32_t switches = ob.switches(d);
      for (int64_t f = 0; f < face; ++f) {
        // Ports: each block's chip at (+d face, f), then its chip at (-d face, f).
        std::vector<std::vector<NodeId>> port_nodes(switches);
        for (auto& nodes : port_nodes) nodes.resize(ob.split() ? ob.ports : 2 * block_count, kNoNode);
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
          const BlockPorts at = ob.ports_of(d, blk);
          port_nodes[at.sw][at.port] = units[base + (ob.block[d] - 1) * strides[d]];  // + face
          port_nodes[at.sw][at.port + 1] = units[base];                               // - face
        }
        ob.switch_of[d].emplace_back();
        for (uint32_t k = 0; k < switches; ++k) {
          auto& nodes = port_nodes[k];
          while (!nodes.empty() && nodes.back() == kNoNode)
            nodes.pop_back();  // the last switch's spare ports
          std::string name = "ocs-d" + std::to_string(d) + "-f" + std::to_string(f);
          if (switches > 1) name += "-s" + std::to_string(k);
          ob.switch_of[d][f].push_back(machine.topology.add_optical_switch(name, ob.model, std::move(nodes)));
        }
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
      const BlockPorts from = ob.ports_of(d, block_of(i)), to = ob.ports_of(d, block_of(next));
      machine.topology.add_circuit(ob.switch_of[d][f][from.sw], from.port, to.port + 1, ob.circuit_link,
                                   true);
    }
  }
}

}  // namespace zs::topology
