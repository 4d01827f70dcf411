// The small task whose training gives the shipped world lessons/multiple-heads/worlds/
// trained.json its heads (scripts/train-world.mjs runs core/tools/train_world.cpp).
//
// Sentences come from a tiny English grammar:
//   The [adj] N [who V the N] V_say CLAUSE .      CLAUSE = (pronoun | the N) (was ADJ | V_say CLAUSE)
// Every token has the twelve features of the lesson's world (world.json): verb, subject,
// the clause code of its clause (a unit vector; clauses of one sentence are spread evenly on
// the circle, turned by a random angle), for a verb of saying the code of the clause it
// opens, its position as a point on a circle (30 degrees a word), a bias of 1, and three
// meaning numbers drawn at random for every sentence.
//
// One attention layer with four heads of width 3 (d_model = 12) reads the sentence. W_V is
// fixed: every head copies the three meaning numbers into its three columns; W_O is the
// identity. So a head's output is the attention-weighted mean of the words' meanings and a
// job is a target attention row: the output it should produce is that row times the
// meanings. The four jobs (targets), one per head:
//   0 subject     at every verb: the subject of the verb's own clause
//   1 complement  at every verb that opens a clause: the subject of that clause
//   2 previous    at every word but the first: the word before it
//   3 gist        at every word: the mean over the verbs and the subjects
// The loss is the squared error of the outputs at the scored rows (mean over scored rows
// and heads). Only W_Q and W_K are trained, and not their meaning rows (so the scores, and
// the attention, do not depend on the meanings: the blend widget relies on this) nor W_K's
// bias row (it adds one constant to a whole row of scores, which no softmax sees).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mha/training.hpp"

namespace mha::world_task {

using MatrixD = MatrixT<double>;

inline constexpr int kModelWidth = 12, kHeads = 4, kHeadWidth = 3, kMaxWords = 12;
enum Feature : int {
  kVerb, kSubject, kClauseX, kClauseY, kOpensX, kOpensY, kPositionCos, kPositionSin, kBias,
  kMeaning1, kMeaning2, kMeaning3,
};
const char* feature_name(int feature);  // world.json's names: "verb", ..., "meaning 3"; -1 "unused"
const char* head_job(int head);         // "subject", "complement", "previous", "gist"

// xorshift32 (the same numbers natively and in wasm); seed 0 is replaced by a fixed state.
class Rng {
 public:
  explicit Rng(std::uint32_t seed);
  std::uint32_t next();
  int below(int n);                     // uniform in [0, n), n > 0
  double uniform(double lo, double hi); // uniform in [lo, hi)

 private:
  std::uint32_t state_;
};

struct Token {
  std::string word;
  bool verb = false, subject = false;
  int clause = 0;   // 0 = the main clause
  int opens = -1;   // for a verb of saying, the clause it opens
};

struct Sentence {
  std::vector<Token> tokens;
  int clauses = 1;
  MatrixD x;                               // L x 12, the features
  std::array<MatrixD, kHeads> targets;     // per head L x L; a zero row is not scored
  int length() const { return static_cast<int>(tokens.size()); }
};

// A random sentence of the grammar (at most kMaxWords tokens), features and targets.
Sentence random_sentence(Rng& rng);

// The features and targets of given tokens. clause_angles: one per clause, in degrees;
// meanings: L x 3.
Sentence make_sentence(std::vector<Token> tokens, const std::vector<double>& clause_angles,
                       const MatrixD& meanings);

// Which entries of the packed [W_Q | W_K | W_V] (12 x 36) the training changes.
bool trainable(int row, int col);

// The layer before training: trainable entries uniform in +/- init_scale from `seed`, W_V
// copying the meanings into every head, W_O = I, every other entry 0.
AttentionLayerD initial_layer(std::uint32_t seed, double init_scale);

// Runs the layer on the sentence and returns the sum over scored rows and heads of the
// squared error of the output. With `grad` (12 x 36), also adds scale x d(that sum)/d W_QKV.
double sentence_error(AttentionLayerD& layer, const Sentence& sentence, MatrixD* grad = nullptr,
                      double scale = 1.0);

// Rows scored by head `head` in the sentence.
int scored_rows(const Sentence& sentence, int head);

}  // namespace mha::world_task
