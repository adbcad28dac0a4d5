// Rank selections by number and by mesh coordinates, and the one-line errors for bad ones.
#include <doctest/doctest.h>

#include "support/input_error_of.hpp"
#include "workload/rank_selection.hpp"

using namespace zs;
using workload::RankSelection;

namespace {

/// dp 2 x pp 4 x tp 2: rank = dp * 8 + pp * 2 + tp.
workload::Mesh test_mesh() {
  return workload::Mesh({{"dp", 2}, {"pp", 4}, {"tp", 2}});
}

std::vector<uint64_t> selected(const RankSelection& s) {
  std::vector<uint64_t> out;
  for (uint64_t r = 0; r < 16; ++r)
    if (s.contains(r)) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("rank numbers and ranges select their union") {
  const auto s = RankSelection::parse("0-2,5,7..8", test_mesh(), "--timeline-ranks");
  CHECK(selected(s) == std::vector<uint64_t>{0, 1, 2, 5, 7, 8});
  CHECK_FALSE(s.selects_every_rank());
  CHECK(RankSelection().selects_every_rank());
  CHECK(selected(RankSelection()).size() == 16);
}

TEST_CASE("mesh coordinates select the ranks inside every named axis' ranges") {
  const auto mesh = test_mesh();
  CHECK(selected(RankSelection::parse("pp=0..1,tp=0", mesh, "o")) == std::vector<uint64_t>{0, 2, 8, 10});
  CHECK(selected(RankSelection::parse("dp=1,pp=3,pp=0", mesh, "o")) == std::vector<uint64_t>{8, 9, 14, 15});
}

TEST_CASE("a bad selection is one line naming the option and what was expected") {
  const auto mesh = test_mesh();
  auto error = [&](const std::string& text) {
    return test::input_error_of([&] { RankSelection::parse(text, mesh, "--timeline-ranks"); });
  };
  CHECK(error("ep=0") == "--timeline-ranks: \"ep=0\": no mesh axis \"ep\" (the mesh has dp, pp, tp)");
  CHECK(error("16") == "--timeline-ranks: \"16\": rank 16 is beyond the mesh's 16 ranks");
  CHECK(error("pp=4") == "--timeline-ranks: \"pp=4\": pp coordinate 4 is beyond its size 4");
  CHECK(error("3-1").find("expected ranks (\"0-7,12\") or mesh coordinates") != std::string::npos);
  CHECK(error("pp=x").find("expected a coordinate or a range N..M after \"pp=\"") != std::string::npos);
  CHECK(error("0,pp=1") ==
        "--timeline-ranks: \"0,pp=1\": mixes rank numbers and mesh coordinates: use one or "
        "the other");
  CHECK(error("").find("expected ranks") != std::string::npos);
}
