// Point-to-point sends and receives pair up in posting order per (sender, receiver, tag).
#include <doctest/doctest.h>

#include "engine/p2p_matcher.hpp"

using zs::engine::P2PMatcher;

TEST_CASE("p2p matcher: the k-th send pairs with the k-th receive, whichever comes first, per tag") {
  P2PMatcher m;
  CHECK_FALSE(m.post(0, 1, 1, true, {0, 10}));   // send #0, tag +1
  CHECK_FALSE(m.post(0, 1, 1, true, {0, 11}));   // send #1
  CHECK_FALSE(m.post(0, 1, -1, false, {1, 5}));  // a receive of the other direction: no partner yet
  auto first = m.post(0, 1, 1, false, {1, 20});  // receive #0 meets send #0
  REQUIRE(first);
  CHECK(first->send.op == 10);
  CHECK(first->recv.op == 20);
  auto second = m.post(0, 1, 1, false, {1, 21});
  REQUIRE(second);
  CHECK(second->send.op == 11);
  CHECK(second->recv.op == 21);
  auto back = m.post(0, 1, -1, true, {0, 30});  // the other direction's send meets its receive
  REQUIRE(back);
  CHECK(back->send.op == 30);
  CHECK(back->recv.op == 5);
}
