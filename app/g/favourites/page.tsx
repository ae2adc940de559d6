import { FavouritesGrid } from "@/components/galleries/gallery-grid";

export const metadata = { title: "Favourites" };

export default function FavouritesPage() {
  return <FavouritesGrid />;
}
