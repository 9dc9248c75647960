// Replays an EGN file with EGN's own reference rules engine
// (../shared/egn/replayer/rules-engine.js, loaded unchanged) and prints, as one JSON
// array, each deal's trick winners (EGN seat numbers) and score change, in the shape
// of `kiosk egn replay`, so the tests can compare the two engines deal by deal.
//
//   node tests/egn/reference_replay.js RULES_ENGINE.js GAME.egn
"use strict";
const fs = require("fs");
const vm = require("vm");

const [enginePath, gamePath] = process.argv.slice(2);
const context = {};
vm.createContext(context);
vm.runInContext(fs.readFileSync(enginePath, "utf8"), context, { filename: enginePath });

const game = JSON.parse(fs.readFileSync(gamePath, "utf8"));
const out = game.deals.map((deal) => {
  const steps = context.compileDealSteps(deal, game.metadata);
  const winners = steps
    .filter((step) => step.trickWinnerSeat !== undefined)
    .map((step) => step.trickWinnerSeat);
  return { deal: deal.dealNumber, trick_winners: winners, score_change: steps[0].scoreChange };
});
process.stdout.write(JSON.stringify(out) + "\n");
