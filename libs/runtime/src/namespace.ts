// Several Verdict installations (or test stacks) can share one Kafka cluster: a namespace
// prefixes every topic and consumer group of one installation, so none sees another's events.
import type { Bus, Handler, PublishInput, SubscribeOptions } from "@verdict/bus";

export function namespacedBus(bus: Bus, namespace: string): Bus {
  if (!namespace) return bus;
  const name = (s: string) => `${namespace}.${s}`;
  return {
    publish: <T>(topic: string, input: PublishInput<T>) => bus.publish(name(topic), input),
    subscribe: <T>(topic: string, group: string, handler: Handler<T>, options?: SubscribeOptions) => bus.subscribe(name(topic), name(group), handler, options),
    close: () => bus.close(),
  };
}
