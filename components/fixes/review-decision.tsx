import { Button } from "@/components/ui/button";

/** Approve or reject an AI fix waiting for its review: the same two buttons on its report's page and in the AI fixes list. */
export function ReviewDecision({ disabled, onDecide }: { disabled: boolean; onDecide: (action: "approve" | "reject") => void }) {
  return (
    <>
      <Button type="button" disabled={disabled} onClick={() => onDecide("approve")}>
        Approve
      </Button>
      <Button type="button" variant="secondary" disabled={disabled} onClick={() => onDecide("reject")}>
        Reject and refund
      </Button>
    </>
  );
}
