import { MessageChannel } from "node:worker_threads";
import { createLogger } from "@verdict/kit";
import { busContract } from "../test/contract.js";
import { InProcessBus } from "./memory.js";
import { PortBus, serveBus } from "./port.bridge.js";
import type { Bus } from "./port.js";

// The in-process bus served across a MessageChannel, as all-in-one serves it to the gateway's
// thread: the same contract must hold on the far side.
busContract("message port bridge", async (): Promise<Bus> => {
  const served = new InProcessBus(createLogger("bus-test", "silent"), 5);
  const { port1, port2 } = new MessageChannel();
  const stopServing = serveBus(served, port1);
  const bus = new PortBus(port2);
  return {
    publish: (topic, input) => bus.publish(topic, input),
    subscribe: (topic, group, handler, options) => bus.subscribe(topic, group, handler, options),
    async close() {
      await bus.close();
      await stopServing();
      await served.close();
    },
  };
});
