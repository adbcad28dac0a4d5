// Generator of k-ary n-dimensional tori (TPU-style direct networks: units linked to their neighbours).
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "dims" (1 to 3 sizes, the first varying fastest), "unit_model", "link_model",
/// "wraparound" (default true). Unit i links to its +1 neighbour in every dimension of size > 1
/// (and the last to the first when wrapping, so a dimension of size 2 has two parallel links).
/// Optional "optical_blocks" ({"block": [bx, by, bz], "model": OCS}) builds the machine of TPU v4:
/// blocks of bx x by x bz units wired electrically inside, and every link that leaves a block an
/// optical circuit. Per dimension with several blocks there is one optical switch per position on a
/// block face (3 x 16 = 48 for 4x4x4 blocks); on it, block b's chip on the + face is port 2b and the
/// chip on the - face port 2b+1, and the circuits start as the torus (b+ to the next block's -). With
/// more blocks than one switch has port pairs, each face position gets several switches ("-s<k>"), each
/// cabled to whole lines of blocks along the dimension (as many as its ports hold, the line at position
/// j of a switch on ports 2 (j x blocks along d + block's place on the line) and + 1): circuits are then
/// set up only between blocks of the same switch's lines.
void generate_torus(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& torus_params();

}  // namespace zs::topology
