// train_world: trains the heads of the shipped world lessons/multiple-heads/worlds/
// trained.json with the core (world_task.hpp, world_trainer.hpp) and prints, as JSON on
// stdout, the trained and rounded W_Q and W_K, the world's sentence with its features, and
// how well every head does its job. scripts/train-world.mjs builds and runs this tool and
// writes the world file from its output. Native only (CMakeLists.txt).
//
//   train_world [--seed N] [--steps N]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mha/errors.hpp"
#include "mha/message.hpp"
#include "world_trainer.hpp"

using mha::AttentionLayerD;
using namespace mha::world_task;

namespace {

constexpr int kWeightDecimals = 3;

// The world's sentence: "The student who met the author thought she was right ." Three
// clauses, their codes at 0, 120 and 240 degrees (as in the lesson's world.json).
Sentence world_sentence(std::uint32_t seed) {
  const auto token = [](const char* word, int clause, bool verb = false, bool subject = false, int opens = -1) {
    Token t;
    t.word = word;
    t.clause = clause;
    t.verb = verb;
    t.subject = subject;
    t.opens = opens;
    return t;
  };
  std::vector<Token> tokens = {
      token("The", 0), token("student", 0, false, true), token("who", 1, false, true), token("met", 1, true),
      token("the", 1), token("author", 1), token("thought", 0, true, false, 2), token("she", 2, false, true),
      token("was", 2, true), token("right", 2), token(".", 0)};
  // Meanings: small seeded numbers, two decimals (scripts/train-world.mjs puts the reader's
  // first candidates in place of the subject's and the complement's).
  Rng rng(seed);
  MatrixD meanings(static_cast<Eigen::Index>(tokens.size()), 3);
  for (Eigen::Index i = 0; i < meanings.size(); ++i) meanings.data()[i] = std::round(rng.uniform(-0.5, 0.5) * 100) / 100;
  return make_sentence(std::move(tokens), {0, 120, 240}, meanings);
}

void print_evaluation(const char* name, const Evaluation& e, bool comma = true) {
  std::printf("  \"%s\": {\"loss\": %.6g, \"heads\": [", name, e.loss);
  for (int i = 0; i < kHeads; ++i) {
    const HeadScore& h = e.heads[static_cast<std::size_t>(i)];
    std::printf("%s{\"job\": \"%s\", \"rows\": %d, \"hitRate\": %.6g, \"overlap\": %.6g}", i ? ", " : "", head_job(i),
                h.rows, h.hit_rate, h.overlap);
  }
  std::printf("]}%s\n", comma ? "," : "");
}

void print_matrix(const char* name, const MatrixD& m, const char* format, bool comma = true) {
  std::printf("  \"%s\": [", name);
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    std::printf("%s[", r ? ",\n    " : "\n    ");
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      std::printf(c ? ", " : "");
      std::printf(format, m(r, c) == 0 ? 0.0 : m(r, c));  // no "-0.000"
    }
    std::printf("]");
  }
  std::printf("\n  ]%s\n", comma ? "," : "");
}

// Which cues each head's job rests on: its measures with a group of features set to 0.
void print_cues(AttentionLayerD& layer, const std::vector<Sentence>& held_out) {
  const struct { const char* name; std::vector<int> features; } groups[] = {
      {"verb", {kVerb}}, {"subject", {kSubject}}, {"clause code", {kClauseX, kClauseY}},
      {"opens code", {kOpensX, kOpensY}}, {"position", {kPositionCos, kPositionSin}}};
  std::printf("  \"without\": {");
  bool first = true;
  for (const auto& group : groups) {
    const Evaluation e = evaluate_without(layer, held_out, group.features);
    const auto list = [&e](double HeadScore::*field) {
      std::string out;
      for (const HeadScore& h : e.heads) out += (out.empty() ? "" : ", ") + mha::describe_number(h.*field);
      return out;
    };
    std::printf("%s\n    \"%s\": {\"hitRate\": [%s], \"overlap\": [%s]}", first ? "" : ",", group.name,
                list(&HeadScore::hit_rate).c_str(), list(&HeadScore::overlap).c_str());
    first = false;
  }
  std::printf("\n  },\n");
}

void print_sentence(const Sentence& sentence) {
  std::printf("  \"tokens\": [");
  for (int t = 0; t < sentence.length(); ++t) std::printf("%s\"%s\"", t ? ", " : "", sentence.tokens[static_cast<std::size_t>(t)].word.c_str());
  std::printf("],\n  \"query\": 6, \"subject\": 1, \"complement\": 7,\n");
  print_matrix("features", sentence.x.transpose(), "%.3f");
}

void print_result(const WorldTrainingConfig& config, WorldTraining& run) {
  std::printf("{\n  \"config\": {\"seed\": %u, \"steps\": %d, \"batchSize\": %d, \"learningRate\": %.6g, "
              "\"weightDecay\": %.6g, \"initScale\": %.6g, \"weightLimit\": %.6g, \"heldOutSentences\": %d},\n",
              config.seed, config.steps, config.batch_size, config.learning_rate, config.weight_decay,
              config.init_scale, config.weight_limit, config.eval_sentences);
  std::printf("  \"lossCurve\": [");
  for (std::size_t i = 0; i < run.loss_curve.size(); ++i) std::printf("%s%.6g", i ? ", " : "", run.loss_curve[i]);
  std::printf("],\n");
  print_evaluation("before", run.before);
  print_evaluation("trained", run.after);
  std::printf("  \"keyColumns\": [");
  for (int i = 0; i < kHeads; ++i) {
    const auto picked = align_key_columns(run.layer, i);
    std::printf("%s[\"%s\", \"%s\", \"%s\"]", i ? ", " : "", feature_name(picked[0]), feature_name(picked[1]),
                feature_name(picked[2]));
  }
  std::printf("],\n");
  round_weights(run.layer, kWeightDecimals);
  const std::vector<Sentence> held_out = held_out_sentences(config);
  print_evaluation("rounded", evaluate(run.layer, held_out));
  print_cues(run.layer, held_out);
  const Sentence sentence = world_sentence(config.seed);
  print_evaluation("sentence", evaluate(run.layer, {sentence}));
  print_sentence(sentence);
  print_matrix("wq", run.layer.w_qkv.leftCols(kModelWidth), "%.3f");
  print_matrix("wk", run.layer.w_qkv.middleCols(kModelWidth, kModelWidth), "%.3f", false);
  std::printf("}\n");
}

bool parse_arguments(int argc, char** argv, WorldTrainingConfig& config) {
  for (int a = 1; a < argc; a += 2) {
    if (a + 1 >= argc) return false;
    char* end = nullptr;
    const long value = std::strtol(argv[a + 1], &end, 10);
    if (*end != '\0' || value < 0 || value > 1000000) return false;
    if (std::strcmp(argv[a], "--seed") == 0) config.seed = static_cast<std::uint32_t>(value);
    else if (std::strcmp(argv[a], "--steps") == 0) config.steps = static_cast<int>(value);
    else return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  WorldTrainingConfig config;
  if (!parse_arguments(argc, argv, config)) {
    std::fprintf(stderr, "usage: train_world [--seed N] [--steps N]  (N a whole number, 0 to 1000000)\n");
    return 2;
  }
  try {
    WorldTraining run = train_world(config);
    print_result(config, run);
  } catch (const mha::InvalidArgument& error) {
    std::fprintf(stderr, "train_world: %s\n", error.what());
    return 1;
  }
  return 0;
}
