// The demo's one conversation: the site admin and the clinician about Hill Country's patients.
import { buildChatDialog, buildChatMessage, buildChatParticipant, pad } from "../factories";
import type { Notable } from "./patients";
import type { Staff } from "./staff";
import type { Ctx, Person } from "./world";

export function addChat(ctx: Ctx, staff: Staff, notable: Notable) {
  const { w, ago } = ctx;
  const { siteadmin, clinician } = staff;
  const dialogId = "seed-chat-1";
  const repairedName = notable.repaired
    ? `${notable.repaired.firstName} ${notable.repaired.lastName}`
    : "our new patient";
  const messages: [Person, number, number, string][] = [
    [
      siteadmin,
      6,
      9 * 60 + 12,
      "Morning Alex, could you go through the Hill Country patients below 50% before Thursday's huddle?",
    ],
    [
      clinician,
      6,
      9 * 60 + 31,
      "Will do. Two of them had their goals changed this week, I'll call them today.",
    ],
    [
      siteadmin,
      3,
      15 * 60 + 5,
      `Thanks. ${repairedName} has been on the replacement device for a while now, anything to flag?`,
    ],
    [clinician, 2, 8 * 60 + 47, "Transmitting every evening, no deviations worth a call."],
    [siteadmin, 1, 17 * 60 + 20, "Great, thank you!"],
  ];
  const msgTimes = messages.map(([, d, min]) => ago(d, min));
  w.ChatDialog.push(
    buildChatDialog({
      id: dialogId,
      type: 3,
      name: null,
      createdById: siteadmin.id,
      createdAt: msgTimes[0] - 60_000,
      lastMessageAt: msgTimes[msgTimes.length - 1],
    }),
  );
  w.ChatParticipant.push(
    buildChatParticipant({
      dialogId,
      userId: siteadmin.id,
      joinedAt: msgTimes[0] - 60_000,
      lastDeliveredAt: msgTimes[4],
      lastReadAt: msgTimes[4],
    }),
    buildChatParticipant({
      dialogId,
      userId: clinician.id,
      joinedAt: msgTimes[0] - 60_000,
      lastDeliveredAt: msgTimes[4],
      lastReadAt: msgTimes[3],
    }),
  );
  messages.forEach(([sender, , , body], k) => {
    w.ChatMessage.push(
      buildChatMessage({
        id: `seed-chatmsg-${pad(k + 1, 3)}`,
        dialogId,
        senderId: sender.id,
        body,
        createdAt: msgTimes[k],
      }),
    );
  });
}
