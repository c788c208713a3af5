#!/usr/bin/env node
// Reference outputs of Stockfish 19's lite net (nn-61e7af4bb97d) made by the engine that ships it:
// the single-threaded lite WebAssembly build of the `stockfish@19.0.0` npm package, run under node.
//
// usage: node tools/lite-reference.mjs ENGINE_JS [FENS [OUT]]
//
//   ENGINE_JS  bin/stockfish-19-lite-single.js of the unpacked package (its .wasm beside it), e.g.
//              mkdir /tmp/lite && cd /tmp/lite && npm pack stockfish@19.0.0 && tar xzf stockfish-19.0.0.tgz
//              then /tmp/lite/package/bin/stockfish-19-lite-single.js
//   FENS       one FEN a line (default tests/reference/fens.txt)
//   OUT        the TSV to write (default standard output)
//
// For each FEN the engine gets `position fen <fen>`, `eval` and `isready`; everything it prints
// up to `readyok` is that position's answer. From it the line
// `NNUE evaluation <v> (side to move, internal units)` gives `nnue_eval`; a position in check
// prints `Final evaluation: none (in check)` instead and is written with `in_check` 1 and
// `nnue_eval` `-`. Any other answer stops the script. The engine must report loading
// nn-61e7af4bb97d.nnue, its default net.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const NET = "nn-61e7af4bb97d.nnue";
const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const [engine, fensPath = join(repo, "tests/reference/fens.txt"), out] = process.argv.slice(2);
if (!engine) {
    console.error("usage: node tools/lite-reference.mjs ENGINE_JS [FENS [OUT]]");
    process.exit(2);
}
const fens = readFileSync(fensPath, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "");

const child = spawn(process.execPath, [engine], { stdio: ["pipe", "pipe", "inherit"] });
child.on("exit", (code, signal) => {
    if (!finished) {
        console.error(`engine exited early (code ${code}, signal ${signal})`);
        process.exit(1);
    }
});
let finished = false;

// Lines from the engine, handed to whoever waits for the next one.
const lines = [];
let wake = null;
createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    if (wake) {
        wake();
        wake = null;
    }
});
async function nextLine() {
    while (lines.length === 0) await new Promise((resolve) => (wake = resolve));
    return lines.shift();
}
// Every line up to (not including) the first equal to `last`.
async function until(last) {
    const seen = [];
    for (let line = await nextLine(); line.trim() !== last; line = await nextLine()) seen.push(line);
    return seen;
}
const send = (command) => child.stdin.write(command + "\n");

send("uci");
await until("uciok");
send("isready");
const startup = await until("readyok");

const rows = ["fen\tstm\tin_check\tnnue_eval"];
let netSeen = startup.some((l) => l.includes(`NNUE evaluation using ${NET}`));
const VALUE = /^NNUE evaluation\s+([+-]?\d+) \(side to move, internal units\)$/;
for (const [i, fen] of fens.entries()) {
    send(`position fen ${fen}`);
    send("eval");
    send("isready");
    const answer = await until("readyok");
    netSeen ||= answer.some((l) => l.includes(`NNUE evaluation using ${NET}`));
    const values = answer.map((l) => l.trim().match(VALUE)).filter(Boolean);
    const inCheck = answer.some((l) => l.trim() === "Final evaluation: none (in check)");
    const stm = fen.split(" ")[1];
    if (values.length === 1 && !inCheck) rows.push(`${fen}\t${stm}\t0\t${Number(values[0][1])}`);
    else if (values.length === 0 && inCheck) rows.push(`${fen}\t${stm}\t1\t-`);
    else {
        console.error(`position ${i + 1} (${fen}): unexpected answer:\n${answer.join("\n")}`);
        process.exit(1);
    }
}
if (!netSeen) {
    console.error(`the engine never said it evaluates with ${NET}`);
    process.exit(1);
}
finished = true;
child.kill();
const text = rows.join("\n") + "\n";
if (out) writeFileSync(out, text);
else process.stdout.write(text);
console.error(`${fens.length} positions, ${rows.filter((r) => r.endsWith("\t-")).length} in check`);
