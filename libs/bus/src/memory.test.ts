import { createLogger } from "@verdict/kit";
import { busContract } from "../test/contract.js";
import { InProcessBus } from "./memory.js";

busContract("in-process", async () => new InProcessBus(createLogger("bus-test", "silent"), 5));
