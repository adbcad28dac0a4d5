// Slurm hostlists: expanded and compressed as Slurm's own scontrol does it, checked against scontrol.
#include <doctest/doctest.h>

#include <cstdio>
#include <stdexcept>

#include "inventory/hostlist.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

/// What `scontrol show WHAT ARGUMENT` prints, one line per entry; scontrol reads only the configuration
/// file for these (no daemon), so a minimal one in `dir` is enough.
std::vector<std::string> scontrol(const test::TempDir& dir, const std::string& what,
                                  const std::string& argument) {
  const std::string conf =
      dir.write("slurm.conf",
                "ClusterName=hostlist\nSlurmctldHost=localhost\nNodeName=localhost CPUs=1\n"
                "PartitionName=p Nodes=localhost\n");
  const std::string command =
      "SLURM_CONF=" + conf + " scontrol show " + what + " '" + argument + "' 2>/dev/null";
  std::vector<std::string> lines;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::string text;
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
  ::pclose(pipe);
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

}  // namespace

TEST_CASE("hostlists expand as Slurm writes them") {
  using V = std::vector<std::string>;
  CHECK(inventory::expand_hostlist("gpu[001-003,7],x[08-10]") ==
        V{"gpu001", "gpu002", "gpu003", "gpu7", "x08", "x09", "x10"});
  CHECK(inventory::expand_hostlist("r[1-2]n[01-02]") == V{"r1n01", "r1n02", "r2n01", "r2n02"});
  CHECK(inventory::expand_hostlist("a,b,,c") == V{"a", "b", "c"});
  CHECK(inventory::expand_hostlist("n[9-11],n[1,1]") == V{"n9", "n10", "n11", "n1", "n1"});
  CHECK(inventory::compress_hostlist({"gpu001", "gpu002", "gpu003", "gpu007", "gpu010", "n1", "n2", "n10",
                                      "a1b3", "a1b4"}) == "gpu[001-003,007,010],n[1-2,10],a1b[3-4]");
  CHECK(inventory::compress_hostlist({"n9", "n10", "n08", "n9"}) == "n[9-10,08,9]");
  CHECK(inventory::compress_hostlist({"n1", "m1", "n2", "login"}) == "n1,m1,n2,login");
}

TEST_CASE("expansion and compression agree with scontrol show hostnames and show hostlist") {
  test::TempDir dir;
  for (const std::string e :
       {"gpu[001-128]", "a[1-2]b[3-4],gpu[001-003,7],x[08-10]", "n[9-11],n[09-11]", "[1-2]",
        "n[1-3],n2,n[1,1]", "rack[01-04]-node[1-3]", "h,n[0-2],m[007-008,010]"}) {
    CAPTURE(e);
    CHECK(inventory::expand_hostlist(e) == scontrol(dir, "hostnames", e));
  }
  for (const std::string list :
       {"n1,n2,n3,m1", "n3,n2,n1", "n01,n1", "n1-ib,n2-ib", "r1n1,r1n2,r2n1", "n9,n10", "n09,n10", "n08,n9",
        "n099,n100", "n1,n2,n4,n5,n6", "n007,n008,n010", "x,y", "n1,n1", "n1,m1,n2"}) {
    CAPTURE(list);
    std::vector<std::string> hosts;
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      hosts.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
    const auto written = scontrol(dir, "hostlist", list);
    REQUIRE(written.size() == 1);
    CHECK(inventory::compress_hostlist(hosts) == written[0]);
    CHECK(inventory::expand_hostlist(written[0]) == hosts);
  }
}

TEST_CASE("a bad hostlist says what is wrong, as scontrol refuses it") {
  test::TempDir dir;
  for (const std::string e : {"gpu[2-1]", "n[a-c]", "n[]", "a[1-2]b", "n[1-3,5]x"}) {
    CAPTURE(e);
    CHECK_THROWS_AS(inventory::expand_hostlist(e), std::invalid_argument);
    CHECK(scontrol(dir, "hostnames", e).empty());
  }
  CHECK_THROWS_WITH_AS(inventory::expand_hostlist("gpu[1-3"), "\"gpu[1-3\": a '[' without its ']'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(inventory::expand_hostlist("n[0-99999999]"),
                       "\"n[0-99999999]\": range 0-99999999 is too long", std::invalid_argument);
  // 1,024 x 1,024 names from two brackets of one item: past the bound of 2^17, refused before expanding.
  CHECK_THROWS_WITH_AS(inventory::expand_hostlist("n[0000-1023]x[0000-1023]"),
                       "the expression names more than 131072 hosts", std::invalid_argument);
}
