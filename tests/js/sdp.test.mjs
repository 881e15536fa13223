/* The handshake codes of players' own phones (page/sdp.js), under Node: a browser's description packed, unpacked
 * and rebuilt carries what the other side needs, the codes fit the QR sizes the issue measured, and any code that
 * is not one of ours is refused with the one message a player can act on. That a rebuilt description connects is
 * shown in real browsers: every pairing of tests/site/test_table_link.py goes through pack, a QR, unpack and build. */
import test from "node:test";
import assert from "node:assert/strict";

import { parse, pack, unpack, build, literal, CODE_MAX } from "../../solver/site/web/src/page/sdp.js";
import { GonutsInputError } from "../../solver/site/web/src/core/errors.js";

/* Chromium 13x's data-channel offer in a namespace whose only link is lo (captured for this test). */
const CHROMIUM_OFFER = [
  "v=0", "o=- 6073532231961841163 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=extmap-allow-mixed",
  "a=msid-semantic: WMS", "m=application 59561 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 127.0.0.1",
  "a=candidate:962535726 1 udp 2122260223 127.0.0.1 59561 typ host generation 0 network-id 1 network-cost 50",
  "a=candidate:3354785210 1 tcp 1518280447 127.0.0.1 9 typ host tcptype active generation 0 network-id 1 network-cost 50",
  "a=ice-ufrag:+lLn", "a=ice-pwd:UzTn8PJXlCW7iCZCDMJvVmR2", "a=ice-options:trickle",
  "a=fingerprint:sha-256 1B:00:0C:72:0F:80:32:7A:56:43:86:C9:56:5E:6B:9E:D0:F8:E4:56:19:B4:1E:6C:A8:8F:4C:83:BF:0E:2E:DA",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", ""].join("\r\n");
/* A Firefox-style answer: hex ICE credentials, upper-case transport, an mDNS host name and an IPv6 address, no
 * candidate in the answer itself (trickled), setup active. */
const FIREFOX_ANSWER = [
  "v=0", "o=mozilla...THIS_IS_SDPARTA-115.0 4242 0 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=fingerprint:sha-256 " +
  "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99",
  "a=group:BUNDLE 0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
  "a=candidate:0 1 UDP 2122252543 2b0e5a8c-3f4e-4c1a-9d7e-0123456789ab.local 54321 typ host",
  "a=candidate:1 1 UDP 2122187007 fd00::1:2 54322 typ host", "a=ice-pwd:8b6a1d5c2e4f3a7b9c0d1e2f3a4b5c6d",
  "a=ice-ufrag:9f3c2a1b", "a=mid:0", "a=setup:active", "a=sctp-port:5000", ""].join("\r\n");

/** @param {() => unknown} fn */
const refused = (fn) => assert.throws(fn, (e) => e instanceof GonutsInputError && e.key === "That is not a code from this page.");

test("a browser's offer packs to what the other side needs, and unpacks to it", () => {
  const h = parse("offer", CHROMIUM_OFFER);
  assert.deepEqual(h, { type: "offer", ufrag: "+lLn", pwd: "UzTn8PJXlCW7iCZCDMJvVmR2", setup: "actpass",
    fingerprint: "1B:00:0C:72:0F:80:32:7A:56:43:86:C9:56:5E:6B:9E:D0:F8:E4:56:19:B4:1E:6C:A8:8F:4C:83:BF:0E:2E:DA",
    candidates: [{ address: "127.0.0.1", port: 59561 }] });                // the TCP candidate is not carried
  const code = pack(h);
  assert.equal(code, "GN1O~+lLn~UzTn8PJXlCW7iCZCDMJvVmR2~GwAMcg-AMnpWQ4bJVl5rntD45FYZtB5sqI9Mg78OLto~127.0.0.1_59561");
  assert.deepEqual(unpack(code), h);
  assert.deepEqual(unpack(`  ${code}\n`), h);                              // as pasted
});

test("a rebuilt description says the same again: parse(build(h)) is h", () => {
  for (const [type, sdp] of [["offer", CHROMIUM_OFFER], ["answer", FIREFOX_ANSWER]]) {
    const h = unpack(pack(parse(type, sdp), 8));
    const again = parse(type, build(h));
    assert.deepEqual(again, h);
    assert.match(build(h), /^m=application 9 UDP\/DTLS\/SCTP webrtc-datachannel\r$/m);
    assert.match(build(h), /^a=sctp-port:5000\r$/m);
  }
});

test("mDNS names and IPv6 addresses are carried; IPv4 goes first; an answer may carry none", () => {
  const h = parse("answer", FIREFOX_ANSWER);
  assert.equal(h.setup, "active");
  assert.deepEqual(h.candidates, [{ address: "2b0e5a8c-3f4e-4c1a-9d7e-0123456789ab.local", port: 54321 }, { address: "fd00::1:2", port: 54322 }]);
  assert.deepEqual(unpack(pack(h, 8)).candidates, h.candidates);
  const none = unpack(pack(h, 0));
  assert.deepEqual(none.candidates, []);
  assert.equal(pack(h, 0).split("~").length, 4);
  const mixed = { ...parse("offer", CHROMIUM_OFFER), candidates: [{ address: "fd00::9", port: 9 }, { address: "10.0.0.2", port: 7 }] };
  assert.deepEqual(unpack(pack(mixed, 1)).candidates, [{ address: "10.0.0.2", port: 7 }]);
});

test("Chromium's offer fits a version-5 QR code at level L, its answer a version 4, Firefox's longest a version 6", () => {
  // byte-mode capacity at level L, versions 1 to 6 (ISO/IEC 18004 table 7): no npm package needed here
  const CAPACITY = [17, 32, 53, 78, 106, 134];
  const version = (/** @type {string} */ text) => CAPACITY.findIndex((c) => new TextEncoder().encode(text).length <= c) + 1;
  const offer = pack(parse("offer", CHROMIUM_OFFER));
  // the longest addresses a home network gives, and Firefox's longer credentials
  const long = pack({ ...parse("offer", CHROMIUM_OFFER), ufrag: "9f3c2a1b", pwd: "8b6a1d5c2e4f3a7b9c0d1e2f3a4b5c6d",
                      candidates: [{ address: "192.168.100.200", port: 65535 }] });
  const answer = pack(parse("answer", FIREFOX_ANSWER), 0);
  const chromiumAnswer = pack({ ...parse("offer", CHROMIUM_OFFER), type: "answer", setup: "active", candidates: [] }, 0);
  assert.equal(offer.length, 94);
  assert.equal(version(offer), 5);
  assert.ok(long.length <= 134 && version(long) <= 6 && version(answer) <= 5, `${long.length}, ${answer.length}`);
  assert.equal(chromiumAnswer.length, 78);
  assert.equal(version(chromiumAnswer), 4);
});

test("a guest's answer carries its own IP address, never an mDNS name, within a version-5 QR code", () => {
  const CAPACITY = [17, 32, 53, 78, 106, 134];
  const version = (/** @type {string} */ text) => CAPACITY.findIndex((c) => new TextEncoder().encode(text).length <= c) + 1;
  const chromium = { ...parse("offer", CHROMIUM_OFFER), type: /** @type {"answer"} */ ("answer"), setup: "active" };
  const home = { ...chromium, candidates: [{ address: "f0e1d2c3-b4a5-4697-8899-aabbccddeeff.local", port: 50000 },
                                          { address: "192.168.100.200", port: 65535 }] };
  const code = pack(literal(home), 1);
  assert.deepEqual(unpack(code).candidates, [{ address: "192.168.100.200", port: 65535 }]);
  assert.ok(version(code) <= 5, `${code.length} characters`);
  assert.deepEqual(unpack(pack(literal({ ...home, candidates: home.candidates.slice(0, 1) }), 1)).candidates, []);
  const firefox = pack(literal(parse("answer", FIREFOX_ANSWER)), 1);       // its mDNS name left out, its IPv6 kept
  assert.deepEqual(unpack(firefox).candidates, [{ address: "fd00::1:2", port: 54322 }]);
  assert.ok(version(firefox) <= 5, `${firefox.length} characters`);
});

test("anything that is not one of our codes is refused with one message", () => {
  const good = pack(parse("offer", CHROMIUM_OFFER));
  const parts = good.split("~");
  for (const bad of [
    "", "hello", "GN1", "GN1X~a~b~c", "GN2O" + good.slice(4), parts.slice(0, 3).join("~"),
    [parts[0], "ab", ...parts.slice(2)].join("~"),                                  // a user fragment too short
    [parts[0], parts[1], "short", ...parts.slice(3)].join("~"),
    [parts[0], parts[1], parts[2], parts[3].slice(1), parts[4]].join("~"),          // 42 characters of fingerprint
    [parts[0], parts[1], parts[2], parts[3].slice(0, 42) + "=", parts[4]].join("~"),
    [...parts.slice(0, 4), "evil.example.com_80"].join("~"), [...parts.slice(0, 4), "127.0.0.1_0"].join("~"),
    [...parts.slice(0, 4), "127.0.0.1_65536"].join("~"), [...parts.slice(0, 4), "256.0.0.1_80"].join("~"),
    [...parts.slice(0, 4), "127.0.0.1"].join("~"), [...parts.slice(0, 4), "<script>_80"].join("~"),
    [...parts.slice(0, 4), ...Array(9).fill("10.0.0.1_80")].join("~"),
    good + "~" + "x".repeat(CODE_MAX),
  ]) refused(() => unpack(bad));
  for (const notText of [null, 42, {}, ["GN1O"]]) refused(() => unpack(notText));
});

test("a description without a SHA-256 fingerprint cannot make a code", () => {
  assert.throws(() => parse("offer", CHROMIUM_OFFER.replace("sha-256", "sha-1")),
    (e) => e instanceof GonutsInputError && e.key === "This browser cannot make a code for its connection.");
});
