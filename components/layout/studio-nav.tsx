"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import type { Role } from "@/lib/domain/identity/roles";
import { isActive, navGroupsFor, type NavGroup } from "./nav-items";
import { StudioSwitcher } from "./studio-switcher";

/**
 * The studio header. From 768 px: one button per group (Services, Studio data,
 * Developers, Account), each opening its pages in a dropdown; the group holding
 * the current page is marked and names it. Narrower: a Menu button opens every
 * group as a list under the header, with the studio switcher (in the header it
 * would push the Menu button off a phone's screen). Both close when a link is followed, on Escape
 * or a click outside.
 */
export function StudioNav({ email, plan, role, studio }: { email: string; plan: string; role: Role; studio: { id: string; name: string } }) {
  const pathname = usePathname();
  const groups = navGroupsFor(role);
  const [open, setOpen] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const header = useRef<HTMLElement>(null);

  const close = () => {
    setOpen(null);
    setMenuOpen(false);
  };
  useEffect(() => {
    if (!open && !menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(null);
        setMenuOpen(false);
      }
    };
    const onDown = (e: PointerEvent) => {
      if (header.current && !header.current.contains(e.target as Node)) {
        setOpen(null);
        setMenuOpen(false);
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open, menuOpen]);

  return (
    <header ref={header} className="relative border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2 md:px-6">
        <Link href="/dashboard" className="whitespace-nowrap font-semibold text-brand-700">
          Print Studio
        </Link>
        <nav aria-label="Studio" className="hidden flex-1 items-center gap-1 md:flex">
          {groups.map((group) => (
            <GroupMenu key={group.label} group={group} pathname={pathname} open={open === group.label} onToggle={() => setOpen((o) => (o === group.label ? null : group.label))} onNavigate={close} />
          ))}
        </nav>
        <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
          {/* On a phone the switcher is in the menu: beside the Menu button it pushed it off the screen. */}
          <div className="hidden min-w-0 md:block">
            <StudioSwitcher current={studio} role={role} />
          </div>
          <span className="hidden truncate lg:inline" title={email}>
            {email}
          </span>
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs uppercase">{plan}</span>
          <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className="hidden whitespace-nowrap text-slate-500 hover:text-slate-900 md:inline">
            Sign out
          </button>
          <button
            type="button"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="studio-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu
          </button>
        </div>
      </div>
      {menuOpen ? (
        <nav id="studio-menu" aria-label="Studio" className="border-t border-slate-200 px-4 pb-4 md:hidden">
          <div className="flex flex-wrap items-center justify-between gap-2 py-2">
            <p className="min-w-0 truncate text-xs text-slate-500">
              {studio.name} · {email}
            </p>
            <StudioSwitcher current={studio} role={role} />
          </div>
          <div className="grid grid-cols-2 gap-x-4 gap-y-3">
            {groups.map((group) => (
              <div key={group.label}>
                <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{group.label}</h2>
                <ul className="mt-1">
                  {group.items.map((item) => (
                    <li key={item.href}>
                      <NavLink href={item.href} label={item.label} active={isActive(pathname, item.href)} onNavigate={close} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
          <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className="mt-3 text-sm text-slate-600 hover:text-slate-900">
            Sign out
          </button>
        </nav>
      ) : null}
    </header>
  );
}

function GroupMenu({ group, pathname, open, onToggle, onNavigate }: { group: NavGroup; pathname: string; open: boolean; onToggle: () => void; onNavigate: () => void }) {
  const current = group.items.find((i) => isActive(pathname, i.href));
  const id = `nav-${group.label.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <div className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
        className={`flex items-center gap-1 whitespace-nowrap rounded-md px-3 py-1.5 text-sm ${current ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
      >
        {group.label}
        {current ? <span className="text-slate-500">: {current.label}</span> : null}
        <span aria-hidden className="text-xs">
          ▾
        </span>
      </button>
      {open ? (
        <ul id={id} className="absolute left-0 z-20 mt-1 min-w-48 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
          {group.items.map((item) => (
            <li key={item.href}>
              <NavLink href={item.href} label={item.label} active={isActive(pathname, item.href)} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A page link; following it closes the menu it is in. */
function NavLink({ href, label, active, onNavigate }: { href: string; label: string; active: boolean; onNavigate: () => void }) {
  return (
    <Link
      href={href}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      className={`block whitespace-nowrap rounded-md px-3 py-1.5 text-sm ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
    >
      {label}
    </Link>
  );
}
