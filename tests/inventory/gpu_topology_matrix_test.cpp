// nvidia-smi topo -m: the GPU and NIC matrix, each GPU's nearest NIC, and one error line per malformed part.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "inventory/gpu_topology_matrix.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

/// An 4-GPU PCIe machine of the older format: NICs named by device, direct NVLink pairs.
const char* kPairs =
    "\tGPU0\tGPU1\tGPU2\tGPU3\tmlx5_0\tmlx5_1\tCPU Affinity\tNUMA Affinity\n"
    "GPU0\t X \tNV2\tPHB\tSYS\tPIX\tSYS\t0-15\t0\n"
    "GPU1\tNV2\t X \tPHB\tSYS\tPXB\tSYS\t0-15\t0\n"
    "GPU2\tPHB\tPHB\t X \tNV1\tSYS\tPIX\t16-31\t1\n"
    "GPU3\tSYS\tSYS\tNV1\t X \tSYS\tPXB\t16-31\t1\n"
    "mlx5_0\tPIX\tPXB\tSYS\tSYS\t X \tSYS\n"
    "mlx5_1\tSYS\tSYS\tPIX\tPXB\tSYS\t X \n"
    "\nLegend:\n\n  X    = Self\n";

std::string parse_error(const std::string& text) {
  return test::input_error_of([&] { inventory::GpuTopologyMatrix::parse(text, "topo.txt"); });
}

}  // namespace

TEST_CASE("the shipped HGX H100 matrix: 8 GPUs on NV18, GPU k nearest NIC k of 10") {
  core::DiskFileSource files;
  const auto text = files.read(ZS_SOURCE_DIR "/topologies/inventory/hgx-h100-4node/hgx-h100.topo.txt");
  REQUIRE(text);
  const auto m = inventory::GpuTopologyMatrix::parse(*text, "hgx-h100.topo.txt");
  CHECK(m.gpus() == 8);
  CHECK(m.uniform_nvlinks() == 18);
  CHECK(m.nics.size() == 10);
  CHECK(m.nics[9] == "mlx5_9");
  CHECK(m.nearest_nic() == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("direct NVLink pairs and PCIe: no uniform NVLink count, NICs shared by two GPUs") {
  const auto m = inventory::GpuTopologyMatrix::parse(kPairs, "topo.txt");
  CHECK(m.gpus() == 4);
  CHECK(m.uniform_nvlinks() == 0);
  CHECK(m.gpu_to_gpu[0][1].kind == inventory::GpuPath::Kind::kNvlink);
  CHECK(m.gpu_to_gpu[0][1].nvlinks == 2);
  CHECK(m.gpu_to_gpu[0][2].kind == inventory::GpuPath::Kind::kPhb);
  CHECK(m.nics == std::vector<std::string>{"mlx5_0", "mlx5_1"});
  CHECK(m.nearest_nic() == std::vector<uint32_t>{0, 0, 1, 1});
}

TEST_CASE("malformed nvidia-smi output: the file, the line and what was expected") {
  CHECK(parse_error("GPU0\tX\n") ==
        "topo.txt: line 1: expected the header of nvidia-smi topo -m (a tab, then GPU0, GPU1, ...)");
  CHECK(parse_error("\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPIX\nGPU1\tNV4\t X \n") ==
        "topo.txt: line 3: expected 3 cells after GPU1, got 2");
  CHECK(parse_error("\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPIX\nGPU1\tNV4\t X \tPCI\n") ==
        "topo.txt: line 3: column NIC0: unknown connection \"PCI\" (expected X, NV<n>, PIX, PXB, PHB, NODE "
        "or SYS)");
  CHECK(parse_error("\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPIX\nGPU1\tNV2\t X \tPIX\n") ==
        "topo.txt: line 2: GPU0 and GPU1 disagree on how they connect");
  CHECK(parse_error("\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n") ==
        "topo.txt: no NIC column: the planner needs each GPU's NIC (nvidia-smi topo -m on a node with its "
        "NICs)");
  CHECK(parse_error("\tGPU0\tNIC0\nGPU0\t X \tPIX\nDISK\t X \tPIX\n") ==
        "topo.txt: line 3: expected a row of a GPU or a NIC, got \"DISK\"");
  CHECK(parse_error("") == "topo.txt: expected the output of nvidia-smi topo -m: no header line");
}
