"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import { studioKeys, type AgencyDetail } from "@/components/agencies/types";

/**
 * Face matching starts off for every agency. A person turns it on by confirming
 * the agency has consent; the API records who and when, shown here. Off deletes
 * every face embedding of the agency at once.
 */
export function ConsentSwitch({ agency, onChange }: { agency: AgencyDetail; onChange: () => void }) {
  const queryClient = useQueryClient();
  const [confirmed, setConfirmed] = useState(false);
  const change = useMutation({
    mutationFn: async (enabled: boolean) =>
      unwrap(
        await studioApi.PATCH("/v1/services/studio/agencies/{agencyId}", {
          params: { path: { agencyId: String(agency.id) } },
          body: enabled ? { face_matching_enabled: true, consent_confirmed: true } : { face_matching_enabled: false },
        }),
      ),
    onSuccess: async () => {
      setConfirmed(false);
      onChange();
      await queryClient.invalidateQueries({ queryKey: studioKeys.agency(agency.id) });
    },
  });
  const learning = useMutation({
    mutationFn: async (on: boolean) =>
      unwrap(await studioApi.PATCH("/v1/services/studio/agencies/{agencyId}", { params: { path: { agencyId: String(agency.id) } }, body: { learn_from_confirmed_matches: on } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studioKeys.agency(agency.id) }),
  });
  if (agency.face_matching_enabled) {
    const consent = agency.face_matching_consent;
    return (
      <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
        <p>
          Face matching is <strong>on</strong> for {agency.name}.{" "}
          {consent ? `Consent confirmed by ${consent.confirmed_by} on ${new Date(consent.confirmed_at).toLocaleString()}.` : "No consent was recorded when it was turned on: turn it off and on again to record it."}
        </p>
        <Button
          variant="danger"
          className="mt-2"
          disabled={change.isPending}
          onClick={() => {
            if (window.confirm(`Turn face matching off for ${agency.name}? Every face embedding of this agency is deleted at once; the roster and photos stay.`)) change.mutate(false);
          }}
        >
          Turn face matching off
        </Button>
        {change.error ? <p className="mt-2 text-red-700">{errorMessage(change.error)}</p> : null}
        <label className="mt-3 flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={agency.learn_from_confirmed_matches}
            disabled={learning.isPending}
            onChange={(e) => {
              const on = e.target.checked;
              if (on || window.confirm("Stop learning from confirmed matches? The faces learned so far are deleted; the portraits stay.")) learning.mutate(on);
            }}
          />
          <span>Learn from confirmed matches: a face you accept or assign in review becomes one of that person&apos;s references (at most 5 each, the oldest replaced; removable on the roster).</span>
        </label>
        {learning.error ? <p className="mt-2 text-red-700">{errorMessage(learning.error)}</p> : null}
      </div>
    );
  }
  return (
    <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <p>
        Face matching is <strong>off</strong> for {agency.name}. It compares faces in your photos with the roster&apos;s portraits, which is biometric
        processing: turn it on only when the agency has consent (for children, their parents&apos; or guardians&apos;).
      </p>
      <label className="mt-2 flex items-start gap-2">
        <input type="checkbox" className="mt-1" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
        <span>I confirm that {agency.name} has consent to match the faces of the people on its roster. My name and the time are recorded.</span>
      </label>
      <Button className="mt-2" disabled={!confirmed || change.isPending} onClick={() => change.mutate(true)}>
        Turn face matching on
      </Button>
      {change.error ? <p className="mt-2 text-red-700">{errorMessage(change.error)}</p> : null}
    </div>
  );
}
