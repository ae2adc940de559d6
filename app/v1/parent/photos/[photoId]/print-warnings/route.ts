import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { photoIdParams } from "@/lib/services/galleries/schemas";
import { printWarnings } from "@/lib/services/production/print-warnings";
import { printWarningsQuery, printWarningsResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent(
    {
      params: photoIdParams,
      query: printWarningsQuery,
      doc: {
        summary: "What production would hold a print (or a package's prints) of this photo for (the crop, the background), in the hold's words, before the parent pays",
        description:
          "The face where the crop puts it crossing the print's safe area; on a background, the child's head cut by the photo's top inside the crop (judged on the photo's stored cut-out; none made yet: not said). Stored faces and cut-outs only: no engine runs. `package_id` instead of `item_id` judges each print of the package with the line's crop, naming the print; with no crop, each print starts around the stored face as production renders it. 404 for a photo the token does not open; 400 naming `item_id` for an item that is not a print of the sheet, `package_id` for an unknown package.",
        response: printWarningsResponse,
      },
    },
    async ({ db, principal, params, query }) => Response.json(await printWarnings(db, principal, params.photoId, query)),
  ),
});
