// The trained world's task (core/tools/world_task.hpp, world_trainer.hpp): the grammar's
// sentences and their targets, the loss and its gradient through the core's attention layer
// (against finite differences), the rewrite of a head's W_Q, W_K that keeps its scores, and
// a short deterministic training run.
#include <catch2/catch.hpp>

#include <cmath>

#include "world_trainer.hpp"

using namespace mha::world_task;

namespace {

int subjects_in(const Sentence& s, int clause) {
  int n = 0;
  for (const Token& t : s.tokens) n += (t.subject && t.clause == clause) ? 1 : 0;
  return n;
}

MatrixD head_scores(const mha::AttentionLayerD& layer, int head) {
  return layer.w_qkv.block(0, head * kHeadWidth, kModelWidth, kHeadWidth) *
         layer.w_qkv.block(0, kModelWidth + head * kHeadWidth, kModelWidth, kHeadWidth).transpose();
}

}  // namespace

TEST_CASE("world task: grammar sentences have one subject per clause and well-formed targets") {
  Rng rng(7);
  for (int n = 0; n < 500; ++n) {
    const Sentence s = random_sentence(rng);
    const int L = s.length();
    REQUIRE(L <= kMaxWords);
    REQUIRE(s.x.rows() == L);
    for (int c = 0; c < s.clauses; ++c) REQUIRE(subjects_in(s, c) == 1);
    for (int t = 0; t < L; ++t) {
      const Token& token = s.tokens[static_cast<std::size_t>(t)];
      // Targets: a row is a distribution over the words, or zero (not scored).
      for (int i = 0; i < kHeads; ++i) {
        const double sum = s.targets[static_cast<std::size_t>(i)].row(t).sum();
        REQUIRE((sum == 0 || std::abs(sum - 1) < 1e-12));
      }
      CHECK((s.targets[0].row(t).sum() > 0) == token.verb);
      CHECK((s.targets[1].row(t).sum() > 0) == (token.opens >= 0));
      CHECK(s.targets[2](t, t > 0 ? t - 1 : 0) == (t > 0 ? 1.0 : 0.0));
      // Features: clause codes are unit vectors; the bias is 1; a verb of saying opens a later clause.
      CHECK(std::hypot(s.x(t, kClauseX), s.x(t, kClauseY)) == Approx(1));
      CHECK(s.x(t, kBias) == 1);
      if (token.opens >= 0) CHECK((token.verb && token.opens > token.clause));
    }
  }
}

TEST_CASE("world task: the loss with uniform attention is the squared error of the mean meaning") {
  Rng rng(11);
  const Sentence s = random_sentence(rng);
  mha::AttentionLayerD layer = initial_layer(3, 0.3);
  for (int r = 0; r < kModelWidth; ++r)
    for (int c = 0; c < 2 * kModelWidth; ++c) layer.w_qkv(r, c) = 0;  // every score 0
  const MatrixD meanings = s.x.middleCols(kMeaning1, 3);
  const Eigen::RowVectorXd mean = meanings.colwise().mean();
  double expected = 0;
  for (int i = 0; i < kHeads; ++i) {
    const MatrixD target = s.targets[static_cast<std::size_t>(i)] * meanings;
    for (int t = 0; t < s.length(); ++t) {
      if (s.targets[static_cast<std::size_t>(i)].row(t).sum() > 0) expected += (mean - target.row(t)).squaredNorm();
    }
  }
  CHECK(sentence_error(layer, s) == Approx(expected).epsilon(1e-12));
}

TEST_CASE("world task: the gradient matches finite differences and leaves the fixed entries alone") {
  Rng rng(5);
  const Sentence s = random_sentence(rng);
  mha::AttentionLayerD layer = initial_layer(9, 0.8);
  MatrixD grad = MatrixD::Zero(kModelWidth, 3 * kModelWidth);
  sentence_error(layer, s, &grad, 1.0);
  double diff = 0, norm = 0;
  for (int r = 0; r < kModelWidth; ++r) {
    for (int c = 0; c < 3 * kModelWidth; ++c) {
      if (!trainable(r, c)) {
        REQUIRE(grad(r, c) == 0);
        continue;
      }
      const double saved = layer.w_qkv(r, c), e = 1e-5;
      layer.w_qkv(r, c) = saved + e;
      const double plus = sentence_error(layer, s);
      layer.w_qkv(r, c) = saved - e;
      const double minus = sentence_error(layer, s);
      layer.w_qkv(r, c) = saved;
      const double fd = (plus - minus) / (2 * e);
      diff += (fd - grad(r, c)) * (fd - grad(r, c));
      norm += fd * fd;
    }
  }
  REQUIRE(norm > 1e-6);
  CHECK(std::sqrt(diff / norm) < 1e-6);
}

TEST_CASE("world task: rewriting a head's W_Q and W_K for reading keeps its scores") {
  mha::AttentionLayerD layer = initial_layer(21, 1.0);
  for (int i = 0; i < kHeads; ++i) {
    const MatrixD before = head_scores(layer, i);
    const auto picked = align_key_columns(layer, i);
    CHECK((head_scores(layer, i) - before).cwiseAbs().maxCoeff() < 1e-9 * before.cwiseAbs().maxCoeff());
    for (int j = 0; j < kHeadWidth; ++j) {
      REQUIRE(picked[static_cast<std::size_t>(j)] >= 0);
      REQUIRE(trainable(picked[static_cast<std::size_t>(j)], kModelWidth));
      // Key column j reads its feature alone among the picked ones.
      for (int m = 0; m < kHeadWidth; ++m) {
        const double entry = layer.w_qkv(picked[static_cast<std::size_t>(m)], kModelWidth + i * kHeadWidth + j);
        if (m == j) CHECK(entry != 0);
        else CHECK(std::abs(entry) < 1e-12);
      }
    }
  }
}

TEST_CASE("world task: a short training run learns the jobs, the same way every time") {
  WorldTrainingConfig config;
  config.steps = 300;
  config.eval_sentences = 100;
  const WorldTraining a = train_world(config);
  const WorldTraining b = train_world(config);
  CHECK(a.layer.w_qkv == b.layer.w_qkv);
  CHECK(a.after.loss < a.before.loss / 10);
  for (const HeadScore& head : a.after.heads) CHECK(head.hit_rate > 0.95);
  config.batch_size = 0;
  CHECK_THROWS_WITH(train_world(config), Catch::Contains("batch_size: expected 1 to 4096, got 0"));
}
