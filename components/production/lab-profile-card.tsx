"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const queryKey = ["production", "settings"];

/** The lab's colour profile: print files are converted into it and carry it; none means sRGB. An admin uploads or removes it. */
export function LabProfileCard({ canChange }: { canChange: boolean }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const { data, error, refetch } = useQuery({ queryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/production/settings")) });
  const done = (answer: { lab_profile: unknown }) => {
    queryClient.setQueryData(queryKey, (old: object | undefined) => (old ? { ...old, lab_profile: answer.lab_profile } : old));
    void queryClient.invalidateQueries({ queryKey });
    if (input.current) input.current.value = "";
  };
  const upload = useMutation({
    mutationFn: async (file: File) =>
      unwrap(
        await studioApi.PUT("/v1/production/settings/lab-profile", {
          body: { file: file.name },
          bodySerializer: () => {
            const form = new FormData();
            form.append("file", file);
            return form;
          },
        }),
      ),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: async () => unwrap(await studioApi.DELETE("/v1/production/settings/lab-profile")), onSuccess: done });
  const profile = data?.lab_profile;
  const busy = upload.isPending || remove.isPending;
  return (
    <Card title="Lab colour profile">
      {error ? <QueryError title="Could not load the production settings." error={error} onRetry={() => void refetch()} /> : null}
      {data ? (
        <div className="space-y-3 text-sm">
          <p className="text-slate-700" data-testid="lab-profile">
            {profile ? (
              <>
                Print files are converted into <strong>{profile.description}</strong> ({Math.round(profile.bytes / 1024)} KB, uploaded {new Date(profile.uploaded_at).toLocaleDateString()}) and carry it.
              </>
            ) : (
              "No lab profile: print files are sRGB with the sRGB profile embedded."
            )}
          </p>
          {canChange ? (
            <div className="flex flex-wrap items-center gap-3">
              <label className="text-slate-700">
                <span className="sr-only">Lab ICC profile</span>
                <input
                  ref={input}
                  type="file"
                  accept=".icc,.icm,application/vnd.iccprofile"
                  disabled={busy}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (file) upload.mutate(file);
                  }}
                />
              </label>
              {profile ? (
                <Button variant="secondary" onClick={() => remove.mutate()} disabled={busy}>
                  Remove the profile
                </Button>
              ) : null}
            </div>
          ) : null}
          {upload.error || remove.error ? <p className="text-red-700">{(upload.error ?? remove.error)!.message}</p> : null}
          <p className="text-xs text-slate-500">Your lab&apos;s ICC profile for RGB (JPEG) printing: an output or display profile, at most 4 MB. Files rendered after a change use it; files already rendered keep theirs.</p>
        </div>
      ) : null}
    </Card>
  );
}
