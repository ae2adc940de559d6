import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { addReminderEmail } from "@/lib/services/galleries/reminder-emails";
import { reminderEmailBody, reminderEmailResponse } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withParent(
    { body: reminderEmailBody, doc: { summary: "E-mail me before the child's gallery closes: an address for the one reminder (at most 3 per child; repeating is harmless)", response: reminderEmailResponse } },
    async ({ db, principal, body }) => Response.json(await addReminderEmail(db, principal, body.email)),
  ),
});
