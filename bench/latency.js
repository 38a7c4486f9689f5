#!/usr/bin/env node
// Unloaded latency with microsecond resolution (autocannon rounds to whole milliseconds):
// `connections` clients each send one request at a time over a kept-alive connection.
import { Agent, request } from 'node:http';

const [url, duration = '10', connections = '1', headersJson = '{}'] = process.argv.slice(2);
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const headers = JSON.parse(headersJson);
const samples = [];
const codes = {};
const deadline = Date.now() + Number(duration) * 1000;

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(target, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        const key = `${Math.floor(res.statusCode / 100)}xx`;
        codes[key] = (codes[key] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function client() {
  while (Date.now() < deadline) await once();
}

await Promise.all(Array.from({ length: Number(connections) }, client));
samples.sort((a, b) => a - b);
const at = (q) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 1000) / 1000;
console.log(JSON.stringify({ rps: samples.length / Number(duration), p50: at(0.5), p90: at(0.9), p99: at(0.99), errors: 0, codes, total: samples.length }));
agent.destroy();
