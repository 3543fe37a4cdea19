// Building blocks of the provider rules whose secret has the shape of an ordinary id.

/**
 * For secrets shaped like ids (digits, hex, a UUID): a match whose name says it is the id of
 * something else (`discord_channel_id`, `asanaProjectGid`, `kucoin_order_id`) is not a
 * credential. Used as `match_allowlist` (the match includes the name).
 */
export const OTHER_OBJECT_ID = String.raw`(?i)(?:order|trade|account|user|member|project|workspace|task|section|team|portfolio|tag|guild|channel|role|server|message|category|owner|emoji|org|page|post|item|product|customer|site|form|board|list|chat|thread)[_.-]?(?:g?ids?|numbers?|no)(?:[^A-Za-z]|$)`;

/** A UUID in hexadecimal, either case (application ids, API keys of several providers). */
export const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
