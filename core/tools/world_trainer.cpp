// The trained world's training loop and its measures (world_trainer.hpp).
#include "world_trainer.hpp"

#include <algorithm>
#include <cmath>

#include "mha/errors.hpp"
#include "mha/message.hpp"
#include "../src/training_internal.hpp"

namespace mha::world_task {

namespace {

// Independent xorshift streams from one seed: the trainer's own mix (training_internal.hpp),
// so that the weights, the batches and the held-out set each have their own.
using training_internal::stream_state;

enum Stream : std::uint32_t { kWeightStream = 1, kBatchStream = 2, kHeldOutStream = 3 };

void check_config(const WorldTrainingConfig& c) {
  const auto require = [](bool ok, const char* field, const char* expected, double got) {
    if (!ok) throw InvalidArgument(message(field, ": expected ", expected, ", got ", got));
  };
  require(c.steps >= 0 && c.steps <= 1000000, "steps", "0 to 1000000", c.steps);
  require(c.batch_size >= 1 && c.batch_size <= 4096, "batch_size", "1 to 4096", c.batch_size);
  require(c.learning_rate > 0 && c.learning_rate <= 1, "learning_rate", "in (0, 1]", c.learning_rate);
  require(c.weight_decay >= 0 && c.weight_decay <= 1, "weight_decay", "in [0, 1]", c.weight_decay);
  require(c.init_scale > 0 && c.init_scale <= 10, "init_scale", "in (0, 10]", c.init_scale);
  require(c.weight_limit > 0 && c.weight_limit <= 10, "weight_limit", "in (0, 10]", c.weight_limit);
  require(c.eval_sentences >= 1 && c.eval_sentences <= 100000, "eval_sentences", "1 to 100000", c.eval_sentences);
}

int argmax(const double* row, int n) {
  int best = 0;
  for (int s = 1; s < n; ++s) {
    if (row[s] > row[best]) best = s;
  }
  return best;
}

// One Adam step on a fresh batch; returns the batch's mean loss.
double train_step(AttentionLayerD& layer, AdamT<double>& adam, Rng& batches, const WorldTrainingConfig& config) {
  std::vector<Sentence> batch;
  int pairs = 0;
  for (int b = 0; b < config.batch_size; ++b) {
    batch.push_back(random_sentence(batches));
    for (int i = 0; i < kHeads; ++i) pairs += scored_rows(batch.back(), i);
  }
  MatrixD grad = MatrixD::Zero(kModelWidth, 3 * kModelWidth);
  double error = 0;
  for (const Sentence& sentence : batch) error += sentence_error(layer, sentence, &grad, 1.0 / pairs);
  for (int r = 0; r < kModelWidth; ++r) {
    for (int c = 0; c < 2 * kModelWidth; ++c) {
      if (trainable(r, c)) grad(r, c) += 2 * config.weight_decay * layer.w_qkv(r, c);
    }
  }
  adam.step({{"W_Q and W_K", &layer.w_qkv, &grad}});
  const double limit = config.weight_limit;
  for (int r = 0; r < kModelWidth; ++r) {
    for (int c = 0; c < 2 * kModelWidth; ++c) {
      if (trainable(r, c)) layer.w_qkv(r, c) = std::fmax(-limit, std::fmin(limit, layer.w_qkv(r, c)));
    }
  }
  return error / pairs;
}

}  // namespace

Evaluation evaluate(AttentionLayerD& layer, const std::vector<Sentence>& sentences) {
  Evaluation result;
  int pairs = 0;
  for (const Sentence& sentence : sentences) {
    result.loss += sentence_error(layer, sentence);
    const int L = sentence.length();
    for (int i = 0; i < kHeads; ++i) {
      const MatrixD& target = sentence.targets[static_cast<std::size_t>(i)];
      HeadScore& score = result.heads[static_cast<std::size_t>(i)];
      const double* weights = layer.weights(0, i);
      for (int t = 0; t < L; ++t) {
        if (target.row(t).sum() <= 0) continue;
        ++score.rows;
        const double* row = weights + static_cast<std::ptrdiff_t>(t) * L;
        score.hit_rate += target(t, argmax(row, L)) > 0 ? 1 : 0;
        for (int s = 0; s < L; ++s) score.overlap += std::fmin(row[s], target(t, s));
      }
    }
  }
  for (HeadScore& score : result.heads) {
    pairs += score.rows;
    if (score.rows > 0) {
      score.hit_rate /= score.rows;
      score.overlap /= score.rows;
    }
  }
  if (pairs > 0) result.loss /= pairs;
  return result;
}

std::vector<Sentence> held_out_sentences(const WorldTrainingConfig& config) {
  Rng rng(stream_state(config.seed, kHeldOutStream));
  std::vector<Sentence> sentences;
  for (int n = 0; n < config.eval_sentences; ++n) sentences.push_back(random_sentence(rng));
  return sentences;
}

WorldTraining train_world(const WorldTrainingConfig& config) {
  check_config(config);
  WorldTraining run{initial_layer(stream_state(config.seed, kWeightStream), config.init_scale), {}, {}, {}};
  const std::vector<Sentence> held_out = held_out_sentences(config);
  run.before = evaluate(run.layer, held_out);
  AdamT<double> adam(config.learning_rate);
  Rng batches(stream_state(config.seed, kBatchStream));
  double block = 0;
  for (int step = 1; step <= config.steps; ++step) {
    block += train_step(run.layer, adam, batches, config);
    if (step % 100 == 0 || step == config.steps) {
      run.loss_curve.push_back(block / (step % 100 == 0 ? 100 : step % 100));
      block = 0;
    }
  }
  run.after = evaluate(run.layer, held_out);
  return run;
}

std::array<int, kHeadWidth> align_key_columns(AttentionLayerD& layer, int head) {
  const Eigen::Index q_col = head * kHeadWidth, k_col = kModelWidth + head * kHeadWidth;
  const MatrixD scores = layer.w_qkv.block(0, q_col, kModelWidth, kHeadWidth) *
                         layer.w_qkv.block(0, k_col, kModelWidth, kHeadWidth).transpose();
  // Q K^T = U S V^T; the directions kept, split evenly: Q_r = U_r S_r^1/2, K_r = V_r S_r^1/2.
  const Eigen::JacobiSVD<MatrixD> svd(scores, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd sigma = svd.singularValues();
  int rank = 0;
  while (rank < kHeadWidth && sigma(rank) > kNegligibleDirection * sigma(0)) ++rank;
  const Eigen::VectorXd root = sigma.head(rank).cwiseSqrt();
  MatrixD q = svd.matrixU().leftCols(rank) * root.asDiagonal();
  MatrixD k = svd.matrixV().leftCols(rank) * root.asDiagonal();
  // Greedy pivots: the key row with most length left after projecting out those before.
  std::array<int, kHeadWidth> picked{-1, -1, -1};
  MatrixD rest = k, a(rank, rank);
  for (int j = 0; j < rank; ++j) {
    Eigen::Index best = 0;
    rest.rowwise().norm().maxCoeff(&best);
    picked[static_cast<std::size_t>(j)] = static_cast<int>(best);
    const Eigen::RowVectorXd u = rest.row(best).normalized();
    rest -= (rest * u.transpose()) * u;
  }
  // Key columns in the features' order (clause x before clause y), dropped ones last.
  std::sort(picked.begin(), picked.begin() + rank);
  for (int j = 0; j < rank; ++j) a.row(j) = k.row(picked[static_cast<std::size_t>(j)]);
  if (rank > 0) {
    k = k * a.inverse();
    q = q * a.transpose();
  }
  for (int j = 0; j < rank; ++j) {
    const double c = std::sqrt(q.col(j).cwiseAbs().maxCoeff() / k.col(j).cwiseAbs().maxCoeff());
    k.col(j) *= c;
    q.col(j) /= c;
  }
  layer.w_qkv.block(0, q_col, kModelWidth, kHeadWidth).setZero();
  layer.w_qkv.block(0, k_col, kModelWidth, kHeadWidth).setZero();
  layer.w_qkv.block(0, q_col, kModelWidth, rank) = q;
  layer.w_qkv.block(0, k_col, kModelWidth, rank) = k;
  return picked;
}

Evaluation evaluate_without(AttentionLayerD& layer, std::vector<Sentence> sentences, const std::vector<int>& removed) {
  for (Sentence& sentence : sentences) {
    for (int f : removed) sentence.x.col(f).setZero();
  }
  return evaluate(layer, sentences);
}

void round_weights(AttentionLayerD& layer, int decimals) {
  const double scale = std::pow(10.0, decimals);
  for (int r = 0; r < kModelWidth; ++r) {
    for (int c = 0; c < 2 * kModelWidth; ++c) layer.w_qkv(r, c) = std::round(layer.w_qkv(r, c) * scale) / scale;
  }
}

}  // namespace mha::world_task
