// Training the trained world's heads on its task (world_task.hpp) with the core's attention
// layer (forward and backward in double) and the core's Adam, and measuring how well each
// head does its job.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "world_task.hpp"

namespace mha::world_task {

struct WorldTrainingConfig {
  std::uint32_t seed = 1;     // names the run: initial weights, batches, evaluation set
  int steps = 1500;           // Adam steps
  int batch_size = 32;        // sentences per step
  double learning_rate = 0.03;
  double init_scale = 0.3;    // trainable entries start uniform in +/- this
  double weight_decay = 2e-5; // L2 penalty on the trainable entries: shrinks what no job needs
  double weight_limit = 8;    // trainable entries are kept within +/- this (the page edits
                              // W_Q within +/- 10)
  int eval_sentences = 1000;  // held-out sentences, drawn from their own stream
};

// How well one head does its job over the scored rows of a set of sentences.
struct HeadScore {
  int rows = 0;         // scored rows
  double hit_rate = 0;  // share of rows whose largest weight falls on a target word
  double overlap = 0;   // mean over rows of sum_s min(weight, target weight): 1 when the row is
                        // the target row; for a one-word target, the weight on that word
};

struct Evaluation {
  double loss = 0;  // mean over scored (row, head) pairs of the output's squared error
  std::array<HeadScore, kHeads> heads;
};

Evaluation evaluate(AttentionLayerD& layer, const std::vector<Sentence>& sentences);

struct WorldTraining {
  AttentionLayerD layer;
  Evaluation before, after;          // on the held-out sentences
  std::vector<double> loss_curve;    // mean training loss of every block of 100 steps
};

// Throws InvalidArgument for a configuration out of range.
WorldTraining train_world(const WorldTrainingConfig& config);

// The held-out sentences of a seed (the same that train_world() evaluates on).
std::vector<Sentence> held_out_sentences(const WorldTrainingConfig& config);

// Rewrites head `head`'s W_Q^i and W_K^i for reading, keeping its scores Q_i K_i^T (only
// they matter): Q_i K_i^T = U S V^T is split again as (U S^1/2 A^T)(V S^1/2 A^-1)^T, where A
// holds the rows of V S^1/2 of the features the head's keys read most (picked greedily, each
// the row with most length left after projecting out the rows before), so each key column
// reads one feature (its row of W_K^i is c e_j) plus what is left of the others; then each
// column pair is rescaled (c, 1/c) so that W_Q's and W_K's largest entries match.
// Directions of Q_i K_i^T weaker than kNegligibleDirection of the strongest are dropped
// (their columns become 0, last). Returns the features the key columns read, in the
// features' order, -1 for a dropped one.
inline constexpr double kNegligibleDirection = 0.01;
std::array<int, kHeadWidth> align_key_columns(AttentionLayerD& layer, int head);

// evaluate() with the features `removed` set to 0 in every sentence: which cues each
// head's job rests on.
Evaluation evaluate_without(AttentionLayerD& layer, std::vector<Sentence> sentences, const std::vector<int>& removed);

// Rounds every entry of W_Q and W_K to `decimals` decimals (what the world file stores).
void round_weights(AttentionLayerD& layer, int decimals);

}  // namespace mha::world_task
